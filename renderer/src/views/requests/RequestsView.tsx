import { useMemo, useState } from 'react';
import type { HistoryEntry } from '../../../../router/api-types.js';
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
import { entryKey } from '../../lib/entry-key.js';
import { replaceHashQuery, useHashQuery } from '../../lib/use-route.js';
import { RequestFilters } from './RequestFilters.js';
import { RequestRow } from './RequestRow.js';

/** Rows per page: the page stays short at any width however much history there is. */
export const PAGE_SIZE = 25;

/**
 * The entries an older page is counted from: those at or older than `anchor` (the newest entry when the
 * reader left the first page), so requests that arrive meanwhile do not shift the rows being read. The
 * first page, or an anchor gone from the history, is live. Returns the entries and how many are newer.
 */
function fromAnchor<T extends Pick<HistoryEntry, 'seq' | 'requestId' | 'at'>>(
  entries: readonly T[],
  anchor: string | null,
): { listed: readonly T[]; newer: number } {
  const at = anchor === null ? -1 : entries.findIndex((entry) => entryKey(entry) === anchor);
  return at <= 0 ? { listed: entries, newer: 0 } : { listed: entries.slice(at), newer: at };
}

/** Newer and older pages, which rows are shown of how many, and how many requests came since. */
function Pager(props: {
  page: number;
  pages: number;
  rows: [number, number];
  of: number;
  newer: number;
  onPage(page: number): void;
}) {
  const { page, pages, rows, of, newer, onPage } = props;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Newer
      </button>
      <span className="muted small" aria-live="polite">
        {rows[0]}–{rows[1]} of {of} · page {page} of {pages}
        {newer > 0 && ` · ${newer} newer since`}
      </span>
      <button
        type="button"
        className="btn btn-small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Older →
      </button>
    </nav>
  );
}

/**
 * The request history, newest first by start time, live from the event stream. Filters and the page live
 * in the URL, so they survive navigation and a reload; each row expands into its decision trace. The first
 * page follows new requests; an older page holds still and says how many came since.
 */
export function RequestsView() {
  const { data, isPending, error } = useHistory();
  const query = useHashQuery();
  const { filter, page: wanted } = useMemo(() => filterFromParams(new URLSearchParams(query)), [query]);
  const sorted = useMemo(() => newestFirst(data?.entries ?? []), [data]);
  const entries = useMemo(() => sorted.filter((e) => matchesFilter(e, filter)), [sorted, filter]);
  const choices = useMemo(() => filterChoices(sorted), [sorted]);
  const [anchor, setAnchor] = useState<string | null>(null);
  // An older page opened from the URL (a reload) holds from the entries it first saw.
  if (wanted > 1 && anchor === null && entries[0] !== undefined) setAnchor(entryKey(entries[0]));
  const { listed, newer } = fromAnchor(entries, wanted > 1 ? anchor : null);
  const pages = Math.max(1, Math.ceil(listed.length / PAGE_SIZE));
  const page = Math.min(wanted, pages);
  const first = (page - 1) * PAGE_SIZE;
  const shown = listed.slice(first, first + PAGE_SIZE);
  const go = (next: HistoryFilter, nextPage: number) => {
    const newest = entries[0];
    setAnchor(nextPage > 1 ? (anchor ?? (newest === undefined ? null : entryKey(newest))) : null);
    replaceHashQuery(filterToParams(next, nextPage).toString());
  };

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
              <RequestRow key={entryKey(entry)} entry={entry} />
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
            <Pager
              page={page}
              pages={pages}
              rows={[first + 1, first + shown.length]}
              of={listed.length}
              newer={newer}
              onPage={(next) => go(filter, next)}
            />
          )}
        </div>
      )}
    </Panel>
  );
}
