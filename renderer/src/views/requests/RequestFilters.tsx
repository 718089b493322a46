import { useId } from 'react';
import type { ApiFace, RequestSource } from '../../../../router/api-types.js';
import {
  NO_FILTER,
  UNKNOWN_AGENT,
  type HistoryFilter,
  type OutcomeFilter,
} from '../../lib/history-filter.js';
import { FACE_LABELS, SOURCE_LABELS } from '../../lib/request-source.js';

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

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
}) {
  const id = useId();
  // A model name longer than the box is cut there: hovering shows it whole.
  const chosen = options.find((option) => option.value === value)?.label;
  return (
    <span className="filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} title={chosen} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </span>
  );
}

const all = (what: string) => ({ value: '', label: `all ${what}` });
const listed = (values: string[]) =>
  values.map((v) => ({ value: v, label: v === UNKNOWN_AGENT ? 'unknown agent' : v }));

/** One filter per question: requested name, served model, face, agent, outcome, source. */
export function RequestFilters({
  filter,
  choices,
  onChange,
}: {
  filter: HistoryFilter;
  choices: { requested: string[]; served: string[]; agents: string[] };
  onChange(filter: HistoryFilter): void;
}) {
  // A value kept in the URL may name something no longer in the history: it stays selectable.
  const keep = (values: string[], current: string) =>
    current && !values.includes(current) ? [...values, current] : values;
  const set =
    <K extends keyof HistoryFilter>(key: K) =>
    (value: string) =>
      onChange({ ...filter, [key]: value });
  const active = JSON.stringify(filter) !== JSON.stringify(NO_FILTER);
  return (
    <div className="filters" role="group" aria-label="Filter requests">
      <Select
        label="Requested"
        value={filter.requested}
        options={[all('names'), ...listed(keep(choices.requested, filter.requested))]}
        onChange={set('requested')}
      />
      <Select
        label="Served by"
        value={filter.served}
        options={[all('models'), ...listed(keep(choices.served, filter.served))]}
        onChange={set('served')}
      />
      <Select
        label="Face"
        value={filter.face}
        options={[
          all('faces'),
          ...(Object.keys(FACE_LABELS) as ApiFace[]).map((f) => ({ value: f, label: FACE_LABELS[f] })),
        ]}
        onChange={set('face')}
      />
      <Select
        label="Agent"
        value={filter.agent}
        options={[all('agents'), ...listed(keep(choices.agents, filter.agent))]}
        onChange={set('agent')}
      />
      <Select label="Outcome" value={filter.outcome} options={OUTCOMES} onChange={set('outcome')} />
      <Select
        label="Source"
        value={filter.source}
        options={[
          all('sources'),
          ...(Object.keys(SOURCE_LABELS) as RequestSource[]).map((s) => ({
            value: s,
            label: SOURCE_LABELS[s],
          })),
        ]}
        onChange={set('source')}
      />
      {active && (
        <button type="button" className="btn btn-small" onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </button>
      )}
    </div>
  );
}
