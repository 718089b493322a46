import { useMemo } from 'react';
import { useHistory } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import {
  filterChoices,
  filterFromParams,
  filterToParams,
  matchesFilter,
  newestFirst,
  type HistoryFilter,
} from '../../lib/history-filter.js';
import { replaceHashQuery, useHashQuery } from '../../lib/use-route.js';
import { RequestFilters } from './RequestFilters.js';
import { RequestRow } from './RequestRow.js';

/** Rows per page: the page stays short at any width however much history there is. */
export const PAGE_SIZE = 25;

/**
 * The request history, newest first by start time, live from the event stream. Filters and the page live
 * in the URL, so they survive navigation and a reload; each row expands into its decision trace.
 */
export function RequestsView() {
  const { data, isPending, error } = useHistory();
  const query = useHashQuery();
  const { filter, page: wanted } = useMemo(() => filterFromParams(new URLSearchParams(query)), [query]);
  const sorted = useMemo(() => newestFirst(data?.entries ?? []), [data]);
  const entries = useMemo(() => sorted.filter((e) => matchesFilter(e, filter)), [sorted, filter]);
  const choices = useMemo(() => filterChoices(sorted), [sorted]);
  const pages = Math.max(1, Math.ceil(entries.length / PAGE_SIZE));
  const page = Math.min(wanted, pages);
  const first = (page - 1) * PAGE_SIZE;
  const shown = entries.slice(first, first + PAGE_SIZE);
  const go = (next: HistoryFilter, nextPage: number) =>
    replaceHashQuery(filterToParams(next, nextPage).toString());

  return (
    <Panel
      title={
        <>
          Request history{' '}
          <span className="muted small">{data ? `${entries.length} of ${data.entries.length}` : ''}</span>
        </>
      }
      className="panel-wide"
    >
      <RequestFilters filter={filter} choices={choices} onChange={(next) => go(next, 1)} />
      <QueryStatus isPending={isPending} error={error} what="history" />
      {data && (
        <div className="requests">
          <div className="request-head" aria-hidden="true">
            <span>started</span>
            <span>agent</span>
            <span>requested</span>
            <span>served by</span>
            <span>outcome</span>
            <span>attempts</span>
            <span>tokens in → out</span>
            <span>wall</span>
          </div>
          <ol className="request-list" aria-label="Requests, newest first">
            {shown.map((entry) => (
              <RequestRow key={entry.requestId} entry={entry} />
            ))}
          </ol>
          {entries.length === 0 && (
            <p className="muted empty">
              {data.entries.length === 0
                ? 'No requests yet. Point an agent at the router (see Overview).'
                : 'No request matches the filters.'}
            </p>
          )}
          {pages > 1 && (
            <nav className="pager" aria-label="Pages">
              <button
                type="button"
                className="btn btn-small"
                disabled={page <= 1}
                onClick={() => go(filter, page - 1)}
              >
                ← Newer
              </button>
              <span className="muted small" aria-live="polite">
                {first + 1}–{first + shown.length} of {entries.length} · page {page} of {pages}
              </span>
              <button
                type="button"
                className="btn btn-small"
                disabled={page >= pages}
                onClick={() => go(filter, page + 1)}
              >
                Older →
              </button>
            </nav>
          )}
        </div>
      )}
    </Panel>
  );
}
