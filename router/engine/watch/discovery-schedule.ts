/**
 * The daily model discovery: each keyed provider's model list is fetched at most once a day without being
 * asked, so a model the provider removed is skipped before an agent meets its 404. A failed fetch counts as
 * the day's attempt: an unreachable provider is asked again the next day, not on every check.
 */
import type { ResolvedConfig } from '../../config/resolve-config.js';
import type { RouterLogger } from '../../public-types.js';
import type { Time, TimerHandle } from '../../state/clock.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { discoverModels, type DiscoveryParts, type DiscoveryResult } from './model-discovery.js';

/** How often the scheduler looks for due providers: hourly, so a daily fetch is at most an hour late. */
export const DISCOVERY_TICK_MS = 3_600_000;
/** The first look after start: soon, but not in the same breath as the start's own work. */
const DISCOVERY_FIRST_MS = 60_000;
/** A provider's list is fetched again this long after the last attempt. */
export const DISCOVERY_EVERY_MS = 86_400_000;

/** A provider as the schedule sees it. */
export interface DiscoveryCandidate {
  id: string;
  /** Enabled, with a base URL and at least one key that is set and not refused. */
  usable: boolean;
}

/**
 * The providers whose list is due: usable ones never asked, or last asked (answered or not) at least
 * {@link DISCOVERY_EVERY_MS} before `now`. Pure.
 * @example dueDiscoveries([{ id: 'groq', usable: true }], new Map([['groq', now - 86_400_000]]), now) // ['groq']
 */
export function dueDiscoveries(
  providers: readonly DiscoveryCandidate[],
  lastAttempts: ReadonlyMap<string, number>,
  now: number,
): string[] {
  return providers
    .filter((provider) => {
      if (!provider.usable) return false;
      const last = lastAttempts.get(provider.id);
      return last === undefined || now - last >= DISCOVERY_EVERY_MS;
    })
    .map((provider) => provider.id);
}

/** The providers of a config, with whether a scheduled discovery may ask them. */
function discoveryCandidates(resolved: ResolvedConfig, quotas: QuotaBook): DiscoveryCandidate[] {
  return [...resolved.providers.values()].map((provider) => ({
    id: provider.id,
    usable:
      provider.enabled &&
      provider.baseUrl !== null &&
      provider.keys.some((key) => key.value !== '' && !quotas.isAuthBlocked(provider.id, key.fingerprint)),
  }));
}

export interface DiscoveryScheduleDeps {
  /** The providers now. */
  candidates: () => DiscoveryCandidate[];
  /** When each provider's list was last asked for. */
  lastAttempts: () => ReadonlyMap<string, number>;
  /** Fetches and applies one provider's list, recording the attempt whatever its answer. */
  discover: (providerId: string) => Promise<DiscoveryResult>;
  /** The clock a day is counted on, and the schedule's timers. */
  time: Time;
  logger: RouterLogger;
}

/** The schedule over a running router's config, quota book, discovery book and time. */
export function routerDiscoveryDeps(parts: DiscoveryParts, logger: RouterLogger): DiscoveryScheduleDeps {
  const { live, quotas, discovery, time } = parts;
  return {
    candidates: () => discoveryCandidates(live.resolved, quotas),
    lastAttempts: () => {
      const ids = new Set([...live.resolved.providers.keys(), ...discovery.all.keys()]);
      const times = new Map<string, number>();
      for (const id of ids) {
        const at = discovery.lastAttemptAt(id);
        if (at !== null) times.set(id, at);
      }
      return times;
    },
    discover: (providerId) => discoverModels(parts, providerId),
    time,
    logger,
  };
}

/** Runs the due discoveries one after another, on a timer that never keeps the process alive. */
export class DiscoverySchedule {
  readonly #deps: DiscoveryScheduleDeps;
  #pass: Promise<string[]> | null = null;
  #first: TimerHandle | null = null;
  #timer: TimerHandle | null = null;

  constructor(deps: DiscoveryScheduleDeps) {
    this.#deps = deps;
  }

  /** The providers due now. */
  due(): string[] {
    const deps = this.#deps;
    return dueDiscoveries(deps.candidates(), deps.lastAttempts(), deps.time.now());
  }

  /** One pass: every due provider, one after another; the ids asked. A pass under way is joined, not doubled. */
  pass(): Promise<string[]> {
    this.#pass ??= this.#runPass().finally(() => {
      this.#pass = null;
    });
    return this.#pass;
  }

  /** Looks after `firstAfterMs`, then every `everyMs`. */
  start(
    everyMs: number = DISCOVERY_TICK_MS,
    firstAfterMs: number = Math.min(everyMs, DISCOVERY_FIRST_MS),
  ): void {
    if (this.#first !== null || this.#timer !== null) return;
    const { time } = this.#deps;
    this.#first = time.setTimeout(() => {
      this.#first = null;
      void this.pass();
      this.#timer = time.setInterval(() => void this.pass(), everyMs);
    }, firstAfterMs);
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    this.#deps.time.clearTimeout(this.#first);
    this.#deps.time.clearInterval(this.#timer);
    this.#first = null;
    this.#timer = null;
    await this.#pass;
  }

  async #runPass(): Promise<string[]> {
    const { logger } = this.#deps;
    const due = this.due();
    for (const id of due) {
      try {
        const result = await this.#deps.discover(id);
        if (result.ok)
          logger.info(
            `model discovery of ${id}: ${result.listed} listed, ${result.vanished.length} vanished, ${result.discovered.length} new`,
          );
        // The message is the router's own words (an HTTP status, "not JSON"), never the provider's text.
        else logger.warn(`model discovery failed (${result.code}): ${result.message}`);
      } catch (error) {
        logger.error(`model discovery of ${id} failed: ${error instanceof Error ? error.name : 'error'}`);
      }
    }
    return due;
  }
}
