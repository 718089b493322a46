import type { IncomingHttpHeaders } from 'node:http';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { ReasoningEffort } from '../../faces/chat-request.js';
import type { RequestNeeds } from '../../faces/request-size.js';
import type { RouterLogger } from '../../public-types.js';
import type { BreakerStore } from '../../state/breaker-store.js';
import type { FitBook } from '../../state/fit-book.js';
import type { Clock } from '../../state/clock.js';
import type { LatencyBook, ModelStatsBook } from '../../state/model-stats.js';
import type { QuotaBook } from '../../state/quota-book.js';
import type { ClientGone } from '../../upstream/attempt-guard.js';
import type { DeadlineWatch } from '../../upstream/deadline-watch.js';
import type { UpstreamClient } from '../../upstream/upstream-client.js';
import type { RankingMemo } from './chain-steps.js';
import type { SessionHomes } from '../fit/session-homes.js';
import type { ThoughtSignatures } from '../../upstream/thought-signatures.js';

/** The engine's stores and services one request uses. */
export interface RouteContext {
  resolved: ResolvedConfig;
  breakers: BreakerStore;
  quotas: QuotaBook;
  /** What refusals taught about each model's size and features. */
  fits: FitBook;
  modelStats: ModelStatsBook;
  /** How fast each model answers, for `fastest` sets (and hedge delays). */
  latency: LatencyBook;
  /** A number in [0, 1): whether a `fastest` set explores this time. Injected so tests decide. */
  random: () => number;
  upstream: UpstreamClient;
  /** Rankings of healthy sets, reused across requests until a store changes. */
  rankings: RankingMemo;
  /** The model each agent conversation is on. */
  sessions: SessionHomes;
  /** The thought signatures Gemini gave its tool calls, for the turns that come back without them. */
  signatures: ThoughtSignatures;
  clock: Clock;
  /** Every attempt's deadlines, on the engine's clock. */
  deadlines: DeadlineWatch;
  logger: RouterLogger;
  /** The user paused routing: requests are refused until resumed. */
  isPaused: () => boolean;
}

/** Who sent a request: an agent, the dashboard testing a model, or the router's health probe. */
export type RequestSource = 'agent' | 'test' | 'probe';

/** One request as the engine routes it, whatever face it came in on (its body is chat completions). */
export interface ChatRequest {
  requestId: string;
  modelRequested: string;
  /** The chat-completions body sent upstream (the face's translation); only `model` changes per attempt. */
  body: Record<string, unknown>;
  stream: boolean;
  clientHeaders: IncomingHttpHeaders;
  client: string | null;
  source: RequestSource;
  /** Marked when the client goes away. */
  clientGone: ClientGone;
  /** Its estimated size and the features it uses: a model that cannot take them is skipped. */
  needs: RequestNeeds;
  /** The agent's conversation (a short hash of its session id), or null: it stays on its model. */
  session: string | null;
  /**
   * The request is the first turn of a conversation known by how it begins (`conversationOf`): it goes down
   * the set, and the model that serves it is where the conversation's next turn goes.
   */
  opensConversation: boolean;
  /**
   * The reasoning effort a translating face read from the agent's request, sent as `reasoning_effort` to
   * the models whose `modelFit` says they take it; null when none was asked (the chat face passes its own).
   */
  effort?: ReasoningEffort | null;
  /**
   * The fingerprint of the one key a dashboard test of a key is sent with (its attempt goes with that key,
   * whatever its state, and with no other); null: the provider's keys in turn.
   */
  testKey?: string | null;
}
