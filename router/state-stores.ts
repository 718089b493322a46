import path from 'node:path';
import type { LiveConfig } from './config/live-config.js';
import type { EventBus } from './engine/event-bus.js';
import type { RouterLogger } from './public-types.js';
import { BreakerStore } from './state/breaker-store.js';
import type { Clock } from './state/clock.js';
import { DailyCounters } from './state/daily-counters.js';
import { FitBook } from './state/fit-book.js';
import { UTC_ZONE } from './state/day-start.js';
import { LatencyBook } from './state/latency-book.js';
import { ProbeBook } from './state/probe-book.js';
import { QuotaBook } from './state/quota-book.js';
import { RequestHistory } from './state/request-history.js';

/** The router's persisted state, one file each in the state folder. */
export interface StateStores {
  breakers: BreakerStore;
  quotas: QuotaBook;
  history: RequestHistory;
  latency: LatencyBook;
  counters: DailyCounters;
  /** Probes spent today per provider and each model's last probe. */
  probeBook: ProbeBook;
  /** What refusals taught about each model's size and features. */
  fits: FitBook;
  /** Writes what is pending and stops every store's timer. */
  close(): Promise<void>;
}

export interface StateStoreOptions {
  stateDir: string;
  clock: Clock;
  debounceMs: number;
  logger: RouterLogger;
  live: LiveConfig;
  events: EventBus;
  /** A model's state changed (its breaker or a pause): the engine tells the dashboard. */
  onModelChange: (key: string) => void;
}

/**
 * Opens and restores the state files: breakers, quota pauses and budgets, history, latency, the day
 * counters (which count every finished request: the history keeps only the last 500), probes and what
 * refusals taught about models' sizes and features.
 */
export async function openStateStores(options: StateStoreOptions): Promise<StateStores> {
  const { stateDir, clock, debounceMs, logger, live } = options;
  const file = (name: string) => ({ file: path.join(stateDir, name), clock, debounceMs, logger });
  const breakers = new BreakerStore({
    ...file('breakers.json'),
    settings: () => live.resolved.config.router.breaker,
    onChange: options.onModelChange,
    isListed: (key) => live.resolved.models.has(key),
  });
  const quotas = new QuotaBook({
    ...file('quotas.json'),
    onChange: (scope) => {
      if (scope.model) options.onModelChange(scope.model);
      if (!scope.provider) return;
      // A provider's id, or a quota account whose pause holds every provider of it.
      const { models, providers } = live.resolved;
      for (const model of models.values())
        if (
          model.provider === scope.provider ||
          providers.get(model.provider)?.quotaAccount === scope.provider
        )
          options.onModelChange(model.key);
    },
  });
  const history = new RequestHistory(file('history.json'));
  const latency = new LatencyBook(file('latency.json'));
  const counters = new DailyCounters(file('counters.json'));
  const probeBook = new ProbeBook({
    ...file('probes.json'),
    zoneOf: (provider) => live.resolved.providers.get(provider)?.dayTimeZone ?? UTC_ZONE,
  });
  const fits = new FitBook(file('fit.json'));
  const all = [breakers, quotas, history, latency, counters, probeBook, fits];
  await Promise.all(all.map((store) => store.load()));
  options.events.on('request', (event) => counters.record(event.entry));
  return {
    breakers,
    quotas,
    history,
    latency,
    counters,
    probeBook,
    fits,
    close: () => settleAll(all.map((store) => store.close())),
  };
}

/**
 * Waits for every promise, then rejects with the first failure, if any: one store that cannot save must
 * not stop the others from saving (nor the shutdown from going on).
 */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
