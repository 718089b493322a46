import { useId } from 'react';
import type { HistoryFilter, OutcomeFilter } from '../../lib/filter-history.js';

const OUTCOMES: { value: OutcomeFilter; label: string }[] = [
  { value: 'all', label: 'all outcomes' },
  { value: 'served', label: 'served' },
  { value: 'failover', label: 'served after failover' },
  { value: 'all_failed', label: 'all failed' },
  { value: 'no_candidates', label: 'no candidates' },
  { value: 'partial', label: 'partial' },
  { value: 'client_aborted', label: 'client aborted' },
  { value: 'rejected', label: 'rejected' },
  { value: 'internal_error', label: 'internal error' },
];

/** Outcome and model filters of the request history. */
export function RequestFilters({
  filter,
  models,
  onChange,
}: {
  filter: HistoryFilter;
  models: string[];
  onChange(filter: HistoryFilter): void;
}) {
  const outcomeId = useId();
  const modelId = useId();
  return (
    <div className="filters">
      <label htmlFor={outcomeId}>Outcome</label>
      <select
        id={outcomeId}
        value={filter.outcome}
        onChange={(e) => onChange({ ...filter, outcome: e.target.value as OutcomeFilter })}
      >
        {OUTCOMES.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <label htmlFor={modelId}>Model</label>
      <select
        id={modelId}
        value={filter.model}
        onChange={(e) => onChange({ ...filter, model: e.target.value })}
      >
        <option value="">all models</option>
        {models.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </div>
  );
}
