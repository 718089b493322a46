import { networkInterfaces } from 'node:os';
import type { HistoryEntry, ModelResetResponse, StateResponse } from '../api-types.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { RouterLogger } from '../public-types.js';
import { MAX_UNLISTED, type BreakerStore } from '../state/breaker-store.js';
import type { FitBook } from '../state/fit-book.js';
import type { Time } from '../state/clock.js';
import type { LatencyBook, ModelStatsBook } from '../state/model-stats.js';
import type { ProbeBook } from '../state/probe-book.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { RequestHistory } from '../state/request-history.js';
import type { ClientGone } from '../upstream/attempt-guard.js';
import { DeadlineWatch } from '../upstream/deadline-watch.js';
import { faultTrace } from '../upstream/exchange-errors.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { EventBus } from './event-bus.js';
import { resolveTarget } from './routing/model-names.js';
import { HealthProber } from './watch/health-prober.js';
import { isOnline } from './watch/online-check.js';
import { RankingMemo } from './routing/chain-steps.js';
import { advertisedWindow } from './fit/set-windows.js';
import { SessionHomes } from './fit/session-homes.js';
import { requestLogLine } from './views/log-text.js';
import { refusalView, type Answer } from './answer/answer.js';
import { INTERNAL_ERROR_ANSWER } from './answer/final-answer.js';
import type { ErrorAnswer } from '../faces/answer-encoder.js';
import {
  historyEntry,
  routeRequest,
  type ChatRequest,
  type Ending,
  type RouteContext,
} from './routing/route-request.js';
import { buildState, modelView } from './views/state-view.js';
import { probeRefusal, type ProbeRefusal } from './watch/probe-refusal.js';
import { ThoughtSignatures } from '../upstream/thought-signatures.js';

/** A refusal before routing: the error the client gets, the headers beside it, whether it went out already. */
export interface BeforeRoutingRefusal {
  error: ErrorAnswer;
  headers?: Readonly<Record<string, string>>;
  answered?: boolean;
}

export interface EngineParts {
  resolved: ResolvedConfig;
  breakers: BreakerStore;
  quotas: QuotaBook;
  history: RequestHistory;
  modelStats: ModelStatsBook;
  latency: LatencyBook;
  /** Probes spent today and each model's last probe. */
  probeBook: ProbeBook;
  /** What refusals taught about each model's size and features. */
  fits: FitBook;
  /** @default Math.random */
  random?: () => number;
  /** Whether the machine looks connected (background probes wait for it). @default its network interfaces */
  isOnline?: () => boolean;
  upstream: UpstreamClient;
  events: EventBus;
  /** The clock and the timers of every deadline, the hedge's delay and the probes' schedule. */
  time: Time;
  logger: RouterLogger;
}

/**
 * The engine: routes chat requests over the current config, keeps history and events, and answers the
 * snapshot questions the server and the desktop shell ask. Knows nothing of HTTP servers.
 */
export class RouterEngine {
  #paused = false;
  #inFlight = 0;
  #idleWaiters: (() => void)[] = [];
  /** The outside ends of the requests in flight, for a stop whose grace ran out. */
  readonly #running = new Set<ClientGone>();
  /** Set once a stop cut the requests in flight: any request that reaches the engine later is cut too. */
  #cut = false;
  readonly #pinned = new Set<string>();
  readonly #rankings = new RankingMemo();
  readonly #sessions: SessionHomes;
  readonly #signatures = new ThoughtSignatures();
  readonly #isPaused = (): boolean => this.#paused;
  /** Every attempt's deadlines on one timer, on the engine's clock. */
  readonly #deadlines: DeadlineWatch;
  /** What each request routes with; rebuilt when the config changes, not per request. */
  #context: RouteContext;
  /** Health probes of the models (the scheduler is started by whoever runs the engine). */
  readonly probes: HealthProber;

  constructor(private readonly parts: EngineParts) {
    this.#deadlines = new DeadlineWatch(parts.time);
    this.#sessions = new SessionHomes(parts.time.now);
    this.#context = this.#contextFor(parts.resolved);
    this.probes = new HealthProber({
      ...parts,
      book: parts.probeBook,
      resolved: () => this.#context.resolved,
      isPaused: this.#isPaused,
      isOnline: parts.isOnline ?? (() => isOnline(networkInterfaces())),
      route: (req, answer) => this.handleChat(req, answer),
      onProbed: (key) => this.emitModel(key),
    });
  }

  #contextFor(resolved: ResolvedConfig): RouteContext {
    const { breakers, quotas, modelStats, latency, upstream, time, logger, fits } = this.parts;
    return {
      resolved,
      breakers,
      quotas,
      fits,
      modelStats,
      latency,
      random: this.parts.random ?? Math.random,
      upstream,
      clock: time.now,
      logger,
      rankings: this.#rankings,
      sessions: this.#sessions,
      signatures: this.#signatures,
      deadlines: this.#deadlines,
      isPaused: this.#isPaused,
    };
  }

  get resolved(): ResolvedConfig {
    return this.#context.resolved;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Applies a new config to the next requests (in-flight ones finish on the config they started with). */
  applyConfig(resolved: ResolvedConfig, changed: string[]): void {
    this.#context = this.#contextFor(resolved);
    this.parts.events.emit({
      type: 'config',
      activeSet: resolved.activeSet,
      sets: { ...resolved.sets } as Record<string, string[]>,
      changed,
    });
  }

  isPaused(): boolean {
    return this.#paused;
  }

  setPaused(paused: boolean): void {
    if (paused === this.#paused) return;
    this.#paused = paused;
    this.parts.events.emit({ type: 'router', paused });
  }

  /** Routes one request to completion through its answer, and records it. */
  async handleChat(req: ChatRequest, answer: Answer): Promise<HistoryEntry> {
    this.#inFlight += 1;
    this.#running.add(req.clientGone);
    if (this.#cut) req.clientGone.markStopped();
    try {
      const context = this.#context;
      const { resolved } = context;
      // The model name is read once, here: routing takes the target as it is.
      const target = resolveTarget(resolved, req.modelRequested);
      if (target.type === 'pinned') this.#notePinned(resolved, target.model.key);
      // Routing's own throw is contained here, in this frame: one async step fewer per request than a
      // wrapper of its own.
      const started = this.parts.time.now();
      let entry: HistoryEntry;
      try {
        entry = await routeRequest(context, req, answer, target);
      } catch (error) {
        entry = this.#contain(req, answer, error, started);
      }
      return this.#record(entry);
    } finally {
      this.#running.delete(req.clientGone);
      this.#inFlight -= 1;
      if (this.#inFlight === 0 && this.#idleWaiters.length > 0)
        this.#idleWaiters.splice(0).forEach((wake) => wake());
    }
  }

  /**
   * Remembers a pinned model for the dashboard: one of the config's, or one of a known provider that its
   * list lacks, at most {@link MAX_UNLISTED} of these (the most recent): made-up ids cannot grow memory.
   */
  #notePinned(resolved: ResolvedConfig, key: string): void {
    if (!resolved.providers.has(key.split('/')[0] ?? '')) return;
    this.#pinned.delete(key);
    this.#pinned.add(key);
    if (this.#pinned.size <= MAX_UNLISTED) return;
    const oldest = this.#pinned.values().next().value;
    if (oldest !== undefined) this.#pinned.delete(oldest);
  }

  /**
   * A local fault on the agent's path before routing began (a face's translator or encoder threw): it is
   * contained, answered and recorded as a fault in routing is.
   */
  failBeforeRouting(req: ChatRequest, answer: Answer, error: unknown): HistoryEntry {
    return this.#record(this.#contain(req, answer, error, this.parts.time.now()));
  }

  /**
   * A request refused before routing (its body unreadable, or not a request its face can take; a wrong
   * method; too many bodies arriving): answered with `refusal.error` in the face's shape, unless it was
   * answered already (`answered`: a body cut at its deadline is answered on the socket), and recorded as
   * `rejected`, as a refusal in routing is. No model is asked or blamed.
   */
  refuseBeforeRouting(req: ChatRequest, answer: Answer, refusal: BeforeRoutingRefusal): HistoryEntry {
    const { error } = refusal;
    if (refusal.answered !== true) answer.refuse(error, 'rejected', refusal.headers);
    else answer.trace.refusal = refusalView(error);
    const now = this.parts.time.now();
    const ending: Ending = { outcome: 'rejected', clientStatus: error.status };
    return this.#record(historyEntry(req, answer, { target: null, started: now, ended: now, ending }));
  }

  /** Adds a finished request to the history, the events and the log. */
  #record(entry: HistoryEntry): HistoryEntry {
    this.parts.history.add(entry);
    this.parts.events.emit({ type: 'request', entry });
    this.parts.logger.info(requestLogLine(entry));
    return entry;
  }

  /**
   * A throw of the router's own code, kept to its request: it answers 500 `internal_error` (or ends a
   * stream already under way), is logged with its stack (never its message: it may quote the prompt), and
   * blames no model.
   */
  #contain(req: ChatRequest, answer: Answer, error: unknown, started: number): HistoryEntry {
    this.parts.logger.error(`request ${req.requestId}: local fault: ${faultTrace(error)}`);
    const committed = answer.started;
    try {
      if (committed) answer.close();
      else answer.refuse(INTERNAL_ERROR_ANSWER, 'internal_error');
    } catch {
      answer.close();
    }
    const ending: Ending = committed
      ? { outcome: 'partial', clientStatus: 200 }
      : { outcome: 'internal_error', clientStatus: 500 };
    return historyEntry(req, answer, { target: null, started, ended: this.parts.time.now(), ending });
  }

  /** Resolves once no request is in flight, or after `timeoutMs` (at once for 0: no grace). */
  waitIdle(timeoutMs: number): Promise<void> {
    if (this.#inFlight === 0 || timeoutMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = this.parts.time.setTimeout(resolve, timeoutMs);
      this.#idleWaiters.push(() => {
        this.parts.time.clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Ends every request in flight, and any that arrives later, as the router's own stop (`router_stopping`,
   * no model blamed): each answers its client as it can and is booked as usual. For a stop whose grace ran
   * out; `waitIdle` then says when they are booked.
   */
  cutInFlight(): void {
    this.#cut = true;
    for (const request of [...this.#running]) request.markStopped();
  }

  state(): StateResponse {
    return buildState({
      ...this.parts,
      resolved: this.#context.resolved,
      pinned: this.#pinned,
      history: this.parts.history.newestFirst(),
      paused: this.#paused,
      lastProbe: (key) => this.probes.last(key),
      now: this.parts.time.now(),
    });
  }

  /** Emits the `breaker` event for one model. */
  emitModel(key: string): void {
    this.parts.events.emit({
      type: 'breaker',
      model: modelView(key, {
        ...this.parts,
        resolved: this.#context.resolved,
        lastProbe: (model) => this.probes.last(model),
        now: this.parts.time.now(),
      }),
    });
  }

  /** The context window an agent should plan for under an advertised model name, or null when unknown. */
  contextWindow(name: string): number | null {
    return advertisedWindow(this.#context.resolved, name, (key) => this.parts.fits.get(key));
  }

  /** A model of the config, pinned since start, or with a breaker. */
  knowsModel(key: string): boolean {
    return (
      this.#context.resolved.models.has(key) ||
      this.#pinned.has(key) ||
      this.parts.breakers.keys().includes(key)
    );
  }

  /** Why probing `key` on the user's word must not run now (`probeRefusal`), or null. */
  probeRefusal(key: string): ProbeRefusal | null {
    const ask = { paused: this.isPaused(), known: this.knowsModel(key), allowed: this.probes.allowed(key) };
    return probeRefusal(key, ask);
  }

  /** Manual breaker reset (and its quota pause): what it found and lifted; null for a key nobody knows. */
  resetModel(key: string): ModelResetResponse | null {
    if (!this.knowsModel(key)) return null;
    const breakerBefore = this.parts.breakers.reset(key);
    const { resolved } = this.#context;
    const provider = resolved.providers.get(resolved.models.get(key)?.provider ?? key.split('/')[0] ?? '');
    const pauseLifted = this.parts.quotas.clearModel(key, provider?.quotaAccount);
    this.parts.fits.forget(key);
    this.emitModel(key);
    return { ok: true, breakerBefore, pauseLifted };
  }
}
