import type { IncomingHttpHeaders } from 'node:http';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { BreakerStore } from '../state/breaker-store.js';
import type { Clock } from '../state/clock.js';
import type { ModelStatsBook } from '../state/model-stats.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { ClientGone } from '../upstream/client-gone.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { ErrorAnswer } from './final-answer.js';
import type { RankingMemo } from './ranking-memo.js';

/** The engine's stores and services one request uses. */
export interface RouteContext {
  resolved: ResolvedConfig;
  breakers: BreakerStore;
  quotas: QuotaBook;
  modelStats: ModelStatsBook;
  upstream: UpstreamClient;
  /** Rankings of healthy sets, reused across requests until a store changes. */
  rankings: RankingMemo;
  clock: Clock;
}

export interface ChatRequest {
  requestId: string;
  modelRequested: string;
  body: Record<string, unknown>;
  stream: boolean;
  clientHeaders: IncomingHttpHeaders;
  client: string | null;
  /** Marked when the client goes away. */
  clientGone: ClientGone;
}

/** How the route answers; implemented by the server over the client's ServerResponse. */
export interface ChatResponder {
  sendJson(status: number, body: Buffer | string, headers: Record<string, string>): void;
  commitStream(headers: Record<string, string>): void;
  write(chunk: Uint8Array): Promise<void> | undefined;
  /** Ends a stream (with `trailer` written last, if any); once ended, later calls do nothing. */
  endStream(trailer: string | null): void;
  sendError(answer: ErrorAnswer, headers: Record<string, string>): void;
}
