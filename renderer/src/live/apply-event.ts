import type {
  HistoryEntry,
  HistoryResponse,
  ModelStateView,
  StateResponse,
} from '../../../router/api-types.js';
import { isAgentRequest } from '../lib/request-source.js';
import { entryKey } from '../lib/entry-key.js';
import { isFailedOutcome } from '../lib/labels.js';

/**
 * Puts a new request at the top of the cached history (newest first), without duplicates, and counts it in
 * today's totals so the overview moves at once (a test is listed, not counted); a refetch reconciles the
 * server's full statistics later.
 */
export function applyRequest(history: HistoryResponse, entry: HistoryEntry, limit: number): HistoryResponse {
  const key = entryKey(entry);
  // The same event again (a reconnect's refetch may already hold it), not a request that reused an id.
  if (history.entries.some((e) => entryKey(e) === key)) return history;
  const entries = [entry, ...history.entries].slice(0, limit);
  const retained = Math.min(limit, history.stats.retained + 1);
  if (!isAgentRequest(entry)) {
    const probes = history.stats.probes + (entry.source === 'probe' ? 1 : 0);
    return { entries, stats: { ...history.stats, retained, tests: history.stats.tests + 1, probes } };
  }
  const today = { ...history.stats.today };
  today.promptTokens += entry.usage?.promptTokens ?? 0;
  today.completionTokens += entry.usage?.completionTokens ?? 0;
  if (entry.outcome === 'served') {
    if (entry.attempts.length > 1) today.servedAfterFailover += 1;
    else today.servedFirstTry += 1;
  } else if (isFailedOutcome(entry.outcome)) {
    today.failed += 1;
  } else if (entry.outcome === 'rejected') {
    today.refused += 1;
  }
  return { entries, stats: { ...history.stats, retained, today } };
}

/** Replaces one model's health in the cached state (its routing position is refreshed by a refetch). */
export function applyBreaker(state: StateResponse, model: ModelStateView): StateResponse {
  const index = state.models.findIndex((m) => m.key === model.key);
  if (index < 0) return { ...state, models: [...state.models, model] };
  const models = state.models.slice();
  models[index] = model;
  return { ...state, models };
}

/** Applies a set change: the active set and the sets themselves. */
export function applyConfig(
  state: StateResponse,
  activeSet: string,
  sets: Record<string, string[]>,
): StateResponse {
  const active = new Set(sets[activeSet] ?? []);
  return {
    ...state,
    activeSet,
    sets,
    models: state.models.map((m) =>
      m.inActiveSet === active.has(m.key) ? m : { ...m, inActiveSet: active.has(m.key) },
    ),
  };
}
