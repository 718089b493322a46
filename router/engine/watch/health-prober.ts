import { randomUUID } from 'node:crypto';
import type { HistoryEntry, ProbeView } from '../../api-types.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { SMALL_REQUEST } from '../../faces/request-size.js';
import type { RouterLogger } from '../../public-types.js';
import type { BreakerStore } from '../../state/breaker-store.js';
import type { Time, TimerHandle } from '../../state/clock.js';
import type { LatencyBook } from '../../state/model-stats.js';
import type { ProbeBook } from '../../state/probe-book.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { ClientGone } from '../../upstream/attempt-guard.js';
import type { Answer } from '../answer/answer.js';
import { candidateFacts } from '../routing/candidate-facts.js';
import { probeAnswer } from './probe-answer.js';
import { dueProbes, probeAllowed, type PlannedProbe, type ProbeCandidate } from './probe-plan.js';
import type { ChatRequest } from '../routing/route-context.js';

/** How often the scheduler looks for due probes. */
export const PROBE_TICK_MS = 15_000;
/** How long a model whose probe never reached its provider waits for its next one (a trial included). */
export const UNREACHED_RETRY_MS = 60_000;
/**
 * A probe asks for next to nothing: it spends as little of the free quota as a real answer can. A thinking
 * model may spend it all on reasoning it does not show; the gate takes that answer cut at the limit as the
 * model answering (`GateAsks.cutAnswers`), so no probe needs room to think.
 */
export const PROBE_MAX_TOKENS = 5;

export interface ProberDeps {
  resolved: () => ResolvedConfig;
  breakers: BreakerStore;
  quotas: QuotaBook;
  latency: LatencyBook;
  /** The day's spent budget and each model's last probe, persisted. */
  book: ProbeBook;
  /** The clock probes are timed on, and the scheduler's timer. */
  time: Time;
  isPaused: () => boolean;
  /**
   * Whether the machine looks connected: probes of models off this machine wait for it, so they cannot fail
   * for that.
   */
  isOnline: () => boolean;
  /** Routes one request to a pinned model, as every request is (gate, classifier, bookkeeping, history). */
  route: (req: ChatRequest, answer: Answer) => Promise<HistoryEntry>;
  /** A model was probed: its view changed. */
  onProbed: (key: string) => void;
  logger: RouterLogger;
}

/**
 * Health probes: a tiny completion to one model, routed as a pinned request with `source: "probe"` (its
 * history entry stays out of agent counters). An OPEN model whose cooldown passed is probed as its trial,
 * so no agent's request has to find out whether it is back; idle models are probed to keep their latency
 * fresh. Background probes are opt-in per provider, within its daily budget, never while routing is paused;
 * while the machine is offline, only models on this machine are probed (`probeAllowed`).
 */
export class HealthProber {
  readonly #deps: ProberDeps;
  #pass: Promise<PlannedProbe[]> | null = null;
  #timer: TimerHandle | null = null;
  /** When each model's last probe that never reached its provider was made. */
  readonly #unreached = new Map<string, number>();

  constructor(deps: ProberDeps) {
    this.#deps = deps;
  }

  /**
   * Whether `key` may be probed now (`probeAllowed`): a model on this machine always, one off it only while
   * the machine is online. Probes, the dashboard's included, ask this.
   */
  allowed(key: string): boolean {
    const local = this.#deps.resolved().providers.get(this.#providerOf(key))?.local ?? false;
    return probeAllowed(local, this.#deps.isOnline());
  }

  /** Probes `provider` spent in its current day. */
  spent(provider: string): number {
    return this.#deps.book.spent(provider);
  }

  /** The last probe of `key`, or null. */
  last(key: string): ProbeView | null {
    return this.#deps.book.last(key);
  }

  /**
   * Probes `key` now (the dashboard's "probe now"): whatever its provider's settings, since the user asked,
   * but counted in the provider's budget, unless its request never left the machine (`unreached`): then it
   * is given back, and the model waits `UNREACHED_RETRY_MS` for its next probe. A paused router refuses it
   * like any request.
   */
  async probe(key: string): Promise<ProbeView> {
    const deps = this.#deps;
    const provider = this.#providerOf(key);
    deps.book.spend(provider);
    const started = deps.time.now();
    const requestId = `probe-${randomUUID()}`;
    const body = { model: key, messages: [{ role: 'user', content: 'hi' }], max_tokens: PROBE_MAX_TOKENS };
    const entry = await deps.route(
      {
        requestId,
        modelRequested: `fcm:@${key}`,
        body,
        stream: false,
        clientHeaders: {},
        client: null,
        source: 'probe',
        clientGone: new ClientGone(),
        needs: SMALL_REQUEST,
        session: null,
        opensConversation: false,
      },
      probeAnswer(requestId),
    );
    const served = entry.outcome === 'served';
    const last = entry.attempts.at(-1);
    if (last?.unreached === true) {
      deps.book.giveBack(provider);
      this.#unreached.set(key, started);
    } else this.#unreached.delete(key);
    const view: ProbeView = {
      at: started,
      ok: served,
      kind: served ? null : (last?.kind ?? null),
      latencyMs: entry.wallMs,
    };
    deps.book.record(key, view);
    deps.onProbed(key);
    return view;
  }

  /**
   * One scheduled pass: the due probes, one after another (a pass still running is joined, not doubled);
   * the probes it made.
   */
  pass(): Promise<PlannedProbe[]> {
    this.#pass ??= this.#runPass().finally(() => {
      this.#pass = null;
    });
    return this.#pass;
  }

  /** Starts the scheduler (a pass every `everyMs`); it never keeps the process alive. */
  start(everyMs: number = PROBE_TICK_MS): void {
    if (this.#timer !== null) return;
    this.#timer = this.#deps.time.setInterval(() => void this.pass(), everyMs);
  }

  /** Stops the scheduler and waits for a pass under way. */
  async stop(): Promise<void> {
    this.#deps.time.clearInterval(this.#timer);
    this.#timer = null;
    await this.#pass;
  }

  /** The probes due now, as the plan says. */
  due(): PlannedProbe[] {
    const deps = this.#deps;
    if (deps.isPaused()) return [];
    return dueProbes(this.#candidates(), {
      now: deps.time.now(),
      online: deps.isOnline(),
      remaining: (provider, limit) => deps.book.remaining(provider, limit),
    });
  }

  async #runPass(): Promise<PlannedProbe[]> {
    const made: PlannedProbe[] = [];
    for (const probe of this.due()) {
      // Routing may have been paused since the plan was made, or the machine gone offline: a model off this
      // machine then waits for its next pass, and one on it is probed still.
      if (this.#deps.isPaused()) break;
      if (!this.allowed(probe.key)) continue;
      made.push(probe);
      try {
        await this.probe(probe.key);
      } catch (error) {
        this.#deps.logger.error(
          `probe of ${probe.key} failed: ${error instanceof Error ? error.name : 'error'}`,
        );
      }
    }
    return made;
  }

  /** The provider of `key`: its model's, or for a model the config does not list, the key's first part. */
  #providerOf(key: string): string {
    return this.#deps.resolved().models.get(key)?.provider ?? key.split('/')[0] ?? '';
  }

  /** Whether `key`'s last probe, not long ago, never reached its provider: its next one waits. */
  #unreachedLately(key: string, now: number): boolean {
    const at = this.#unreached.get(key);
    return at !== undefined && now - at < UNREACHED_RETRY_MS;
  }

  /** Every model of a set whose provider has probes on. */
  #candidates(): ProbeCandidate[] {
    const { breakers, quotas, latency } = this.#deps;
    const resolved = this.#deps.resolved();
    const now = this.#deps.time.now();
    const keys = new Set(Object.values(resolved.sets).flat());
    const out: ProbeCandidate[] = [];
    for (const key of keys) {
      const provider = resolved.models.get(key)?.provider;
      const settings = provider === undefined ? undefined : resolved.config.providers[provider]?.probe;
      if (provider === undefined || settings === undefined || !settings.enabled) continue;
      const facts = candidateFacts(key, resolved, breakers, quotas, new Set());
      const times = [latency.get(key).lastAt, this.#deps.book.last(key)?.at, facts.breaker.lastFailureAt];
      const known = times.filter((at): at is number => typeof at === 'number');
      out.push({
        key,
        provider,
        settings,
        state: facts.breaker.state,
        trialBusy: facts.trialBusy,
        local: resolved.providers.get(provider)?.local ?? false,
        blocked: facts.blocked !== null || this.#unreachedLately(key, now),
        lastActivityAt: known.length === 0 ? null : Math.max(...known),
      });
    }
    return out;
  }
}
