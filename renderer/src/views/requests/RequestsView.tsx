import { useMemo, useState } from 'react';
import { useHistory } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { matchesFilter, modelsInHistory, type HistoryFilter } from '../../lib/filter-history.js';
import { RequestFilters } from './RequestFilters.js';
import { RequestRow } from './RequestRow.js';

const PAGE = 100;

/** The request history, newest first, live from the event stream, filterable, each row expandable. */
export function RequestsView() {
  const { data, isPending, error } = useHistory();
  const [filter, setFilter] = useState<HistoryFilter>({ outcome: 'all', model: '' });
  const [shown, setShown] = useState(PAGE);
  const entries = useMemo(
    () => (data?.entries ?? []).filter((e) => matchesFilter(e, filter)),
    [data, filter],
  );
  const models = useMemo(() => modelsInHistory(data?.entries ?? []), [data]);

  return (
    <Panel
      title={
        <>
          Request history{' '}
          <span className="muted small">{data ? `${entries.length} of ${data.entries.length}` : ''}</span>
        </>
      }
      actions={<RequestFilters filter={filter} models={models} onChange={setFilter} />}
      className="panel-wide"
    >
      <QueryStatus isPending={isPending} error={error} what="history" />
      {data && (
        <div className="requests">
          <div className="request-head" aria-hidden="true">
            <span>time</span>
            <span>agent</span>
            <span>requested</span>
            <span>served by</span>
            <span>outcome</span>
            <span>attempts</span>
            <span>wall</span>
          </div>
          <ol className="request-list" aria-label="Requests, newest first">
            {entries.slice(0, shown).map((entry) => (
              <RequestRow key={entry.requestId} entry={entry} />
            ))}
          </ol>
          {entries.length === 0 && (
            <p className="muted empty">
              {data.entries.length === 0
                ? 'No requests yet. Point an agent at the router (see Overview).'
                : 'No request matches the filter.'}
            </p>
          )}
          {entries.length > shown && (
            <button type="button" className="btn" onClick={() => setShown(shown + PAGE)}>
              Show {Math.min(PAGE, entries.length - shown)} more
            </button>
          )}
        </div>
      )}
    </Panel>
  );
}
