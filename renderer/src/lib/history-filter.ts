import {
  API_FACES,
  REQUEST_OUTCOMES,
  REQUEST_SOURCES,
  type ApiFace,
  type HistoryEntry,
  type RequestOutcome,
  type RequestSource,
} from '../../../router/api-types.js';
import { faceOf, sourceOf } from './request-source.js';

export type OutcomeFilter = 'all' | 'failover' | RequestOutcome;

/** The Requests view's filters; '' (or `all`) lets everything through. */
export interface HistoryFilter {
  /** The model name the agent asked for (`fcm`, `fcm:work`, `fcm:@groq/x`). */
  requested: string;
  /** The model that served. */
  served: string;
  face: ApiFace | '';
  /** The agent's User-Agent product token; {@link UNKNOWN_AGENT} for requests without one. */
  agent: string;
  outcome: OutcomeFilter;
  source: RequestSource | '';
}

/** The agent filter's value for requests that named no agent. */
export const UNKNOWN_AGENT = '-';

export const NO_FILTER: HistoryFilter = {
  requested: '',
  served: '',
  face: '',
  agent: '',
  outcome: 'all',
  source: '',
};

const OUTCOMES: readonly OutcomeFilter[] = ['all', 'failover', ...REQUEST_OUTCOMES];

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T | ''): T | '' =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The filter and page a URL's query holds; anything unknown is ignored. */
export function filterFromParams(params: URLSearchParams): { filter: HistoryFilter; page: number } {
  const page = Number(params.get('page'));
  return {
    filter: {
      requested: params.get('requested') ?? '',
      served: params.get('served') ?? '',
      face: oneOf(API_FACES, params.get('face'), ''),
      agent: params.get('agent') ?? '',
      outcome: oneOf(OUTCOMES, params.get('outcome'), 'all') || 'all',
      source: oneOf(REQUEST_SOURCES, params.get('source'), ''),
    },
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The query for a filter and page, leaving out what is at its default, so a plain view has a plain URL. */
export function filterToParams(filter: HistoryFilter, page: number): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(NO_FILTER) as (keyof HistoryFilter)[]) {
    if (filter[key] !== NO_FILTER[key]) params.set(key, filter[key]);
  }
  if (page > 1) params.set('page', String(page));
  return params;
}

/** Whether an entry passes the filter. `failover` means served after more than one attempt. */
export function matchesFilter(entry: HistoryEntry, filter: HistoryFilter): boolean {
  if (filter.outcome === 'failover') {
    if (entry.outcome !== 'served' || entry.attempts.length < 2) return false;
  } else if (filter.outcome !== 'all' && entry.outcome !== filter.outcome) {
    return false;
  }
  if (filter.requested !== '' && entry.modelRequested !== filter.requested) return false;
  if (filter.served !== '' && entry.servedModel !== filter.served) return false;
  if (filter.face !== '' && faceOf(entry) !== filter.face) return false;
  if (filter.source !== '' && sourceOf(entry) !== filter.source) return false;
  if (filter.agent !== '' && (entry.client ?? UNKNOWN_AGENT) !== filter.agent) return false;
  return true;
}

/** The values each free-text filter can take, from the history itself, sorted. */
export function filterChoices(entries: readonly HistoryEntry[]): {
  requested: string[];
  served: string[];
  agents: string[];
} {
  const requested = new Set<string>();
  const served = new Set<string>();
  const agents = new Set<string>();
  for (const e of entries) {
    requested.add(e.modelRequested);
    if (e.servedModel) served.add(e.servedModel);
    agents.add(e.client ?? UNKNOWN_AGENT);
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return { requested: sorted(requested), served: sorted(served), agents: sorted(agents) };
}

/**
 * Newest first by start time, the time each row shows (the history itself is in the order requests
 * finished, so a long request would otherwise sit above shorter ones that started after it).
 */
export function newestFirst(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.at - a.entry.at || a.index - b.index)
    .map(({ entry }) => entry);
}
