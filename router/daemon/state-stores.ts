import path from 'node:path';
import type { LiveConfig } from '../config/live-config.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { EventBus } from '../engine/event-bus.js';
import type { RouterLogger } from '../public-types.js';
import { BreakerStore } from '../state/breaker-store.js';
import type { Time } from '../state/clock.js';
import { DailyCounters } from '../state/daily-counters.js';
import { FitBook } from '../state/fit-book.js';
import { UTC_ZONE } from '../state/day-start.js';
import { LatencyBook } from '../state/model-stats.js';
import { ProbeBook } from '../state/probe-book.js';
import { QuotaBook, type QuotaScope } from '../state/quota-book.js';
import { RequestHistory } from '../state/request-history.js';

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
  /**
   * Subscribes to models whose state changed (a breaker, a pause): the engine tells the dashboard. Returns
   * the unsubscribe function.
   */
  onModelChange(listener: (key: string) => void): () => void;
  /** Writes what is pending and stops every store's timer. */
  close(): Promise<void>;
}

export interface StateStoreOptions {
  stateDir: string;
  /** The router's time: the stores date entries on it and debounce their writes with it. */
  time: Time;
  debounceMs: number;
  logger: RouterLogger;
  live: LiveConfig;
  events: EventBus;
}

/**
 * Opens and restores the state files: breakers, quota pauses and budgets, history, latency, the day
 * counters (which count every finished request: the history keeps only the last 500), probes and what
 * refusals taught about models' sizes and features.
 */
export async function openStateStores(options: StateStoreOptions): Promise<StateStores> {
  const { stateDir, time, debounceMs, logger, live } = options;
  const file = (name: string) => ({ file: path.join(stateDir, name), time, debounceMs, logger });
  const modelListeners = new Set<(key: string) => void>();
  const modelChanged = (key: string): void => {
    for (const listener of modelListeners) listener(key);
  };
  const breakers = new BreakerStore({
    ...file('breakers.json'),
    settings: live.breakerSettings,
    onChange: modelChanged,
    isListed: (key) => live.resolved.models.has(key),
  });
  const quotas = new QuotaBook({
    ...file('quotas.json'),
    onChange: (scope) => {
      for (const key of modelsInScope(live.resolved, scope)) modelChanged(key);
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
  options.events.on('request', counters.recordRequest);
  return {
    breakers,
    quotas,
    history,
    latency,
    counters,
    probeBook,
    fits,
    onModelChange: (listener) => {
      modelListeners.add(listener);
      return () => modelListeners.delete(listener);
    },
    close: () => settleAll(all.map((store) => store.close())),
  };
}

/** The models a pause's scope holds: its model, and every model of its provider or quota account. */
function modelsInScope(resolved: ResolvedConfig, scope: QuotaScope): string[] {
  const keys = scope.model ? [scope.model] : [];
  if (!scope.provider) return keys;
  const { models, providers } = resolved;
  for (const model of models.values())
    if (model.provider === scope.provider || providers.get(model.provider)?.quotaAccount === scope.provider)
      keys.push(model.key);
  return keys;
}

/**
 * Waits for every promise, then rejects with the first failure, if any: one store that cannot save must
 * not stop the others from saving (nor the shutdown from going on).
 */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
