import type { HistoryEntry, RequestOutcome } from '../../../router/api-types.js';

export type OutcomeFilter = 'all' | 'failover' | RequestOutcome;

export interface HistoryFilter {
  outcome: OutcomeFilter;
  /** A model key; matches the requested, served or any attempted model. '' for all. */
  model: string;
}

/** Whether an entry passes the filter. `failover` means served after more than one attempt. */
export function matchesFilter(entry: HistoryEntry, filter: HistoryFilter): boolean {
  if (filter.outcome === 'failover') {
    if (entry.outcome !== 'served' || entry.attempts.length < 2) return false;
  } else if (filter.outcome !== 'all' && entry.outcome !== filter.outcome) {
    return false;
  }
  if (filter.model === '') return true;
  return (
    entry.modelRequested === filter.model ||
    entry.servedModel === filter.model ||
    entry.attempts.some((a) => a.model === filter.model)
  );
}

/** Every model named in the history, for the filter's choices. */
export function modelsInHistory(entries: readonly HistoryEntry[]): string[] {
  const keys = new Set<string>();
  for (const e of entries) {
    keys.add(e.modelRequested);
    if (e.servedModel) keys.add(e.servedModel);
    for (const a of e.attempts) keys.add(a.model);
  }
  return [...keys].sort();
}
