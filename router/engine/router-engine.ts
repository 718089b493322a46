import type { HistoryEntry, StateResponse } from '../api-types.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { RouterLogger } from '../public-types.js';
import type { BreakerStore } from '../state/breaker-store.js';
import type { Clock } from '../state/clock.js';
import type { ModelStatsBook } from '../state/model-stats.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { RequestHistory } from '../state/request-history.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { EventBus } from './event-bus.js';
import { parseModelName } from './model-names.js';
import { RankingMemo } from './ranking-memo.js';
import { requestLogLine } from './request-log-line.js';
import { routeRequest, type ChatRequest, type ChatResponder, type RouteContext } from './route-request.js';
import { buildState, modelView } from './state-view.js';

export interface EngineParts {
  resolved: ResolvedConfig;
  breakers: BreakerStore;
  quotas: QuotaBook;
  history: RequestHistory;
  modelStats: ModelStatsBook;
  upstream: UpstreamClient;
  events: EventBus;
  clock: Clock;
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
  readonly #pinned = new Set<string>();
  readonly #rankings = new RankingMemo();
  /** What each request routes with; rebuilt when the config changes, not per request. */
  #context: RouteContext;

  constructor(private readonly parts: EngineParts) {
    this.#context = this.#contextFor(parts.resolved);
  }

  #contextFor(resolved: ResolvedConfig): RouteContext {
    const { breakers, quotas, modelStats, upstream, clock } = this.parts;
    return { resolved, breakers, quotas, modelStats, upstream, clock, rankings: this.#rankings };
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

  /** Routes one chat request to completion and records it. */
  async handleChat(req: ChatRequest, res: ChatResponder): Promise<HistoryEntry> {
    this.#inFlight += 1;
    try {
      const context = this.#context;
      const { resolved } = context;
      const target = parseModelName(req.modelRequested, resolved.sets, resolved.activeSet);
      if (target.type === 'pinned') this.#pinned.add(target.model);
      const entry = this.#paused ? this.#rejectPaused(req, res) : await routeRequest(context, req, res);
      this.parts.history.add(entry);
      this.parts.events.emit({ type: 'request', entry });
      this.parts.logger.info(requestLogLine(entry));
      return entry;
    } finally {
      this.#inFlight -= 1;
      if (this.#inFlight === 0 && this.#idleWaiters.length > 0)
        this.#idleWaiters.splice(0).forEach((wake) => wake());
    }
  }

  #rejectPaused(req: ChatRequest, res: ChatResponder): HistoryEntry {
    const headers = {
      'x-request-id': req.requestId,
      'x-fcm-v2-model': 'none',
      'x-fcm-v2-attempts': '0',
      'x-fcm-v2-decision': 'none!rejected||skips=0',
    };
    res.sendError(
      {
        status: 503,
        code: 'router_paused',
        type: 'service_unavailable',
        message: 'fcm-router: routing is paused (resume it from the tray or the dashboard)',
        retryAfterSec: 30,
      },
      headers,
    );
    return {
      requestId: req.requestId,
      at: this.parts.clock(),
      modelRequested: req.modelRequested,
      set: null,
      pinned: null,
      servedModel: null,
      outcome: 'rejected',
      stream: req.stream,
      wallMs: 0,
      attempts: [],
      skipped: [],
      client: req.client,
      clientStatus: 503,
      lastResortUsed: false,
      usage: null,
    };
  }

  /** Resolves once no request is in flight, or after `timeoutMs`. */
  waitIdle(timeoutMs: number): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  state(): StateResponse {
    return buildState({
      ...this.parts,
      resolved: this.#context.resolved,
      pinned: this.#pinned,
      paused: this.#paused,
      now: this.parts.clock(),
    });
  }

  /** Emits the `breaker` event for one model. */
  emitModel(key: string): void {
    this.parts.events.emit({
      type: 'breaker',
      model: modelView(key, { ...this.parts, resolved: this.#context.resolved, now: this.parts.clock() }),
    });
  }

  /** Manual breaker reset (and its quota pause); false for a key nobody knows. */
  resetModel(key: string): boolean {
    const known =
      this.#context.resolved.models.has(key) ||
      this.#pinned.has(key) ||
      this.parts.breakers.keys().includes(key);
    if (!known) return false;
    this.parts.breakers.reset(key);
    this.parts.quotas.clearModel(key);
    this.emitModel(key);
    return true;
  }
}
