import { useId, useState } from 'react';
import type { HistoryEntry } from '../../../../router/api-types.js';
import { OutcomeBadge } from '../../components/OutcomeBadge.js';
import { TraceTimeline } from '../../components/TraceTimeline.js';
import { formatClock, formatLatency } from '../../lib/format.js';

/** One request of the history; expands into its decision trace. */
export function RequestRow({ entry }: { entry: HistoryEntry }) {
  const [open, setOpen] = useState(false);
  const traceId = useId();
  return (
    <li className={`request-row ${open ? 'is-open' : ''}`} data-request-id={entry.requestId}>
      <button
        type="button"
        className="request-summary"
        aria-expanded={open}
        aria-controls={traceId}
        onClick={() => setOpen(!open)}
      >
        <span className="req-time mono">{formatClock(entry.at)}</span>
        <span className="req-client" title="Agent (User-Agent)">
          {entry.client ?? <span className="muted">unknown agent</span>}
        </span>
        <span className="req-model mono" title="Requested model">
          {entry.modelRequested}
        </span>
        <span className="req-served mono" title="Served by">
          {entry.servedModel ?? '–'}
        </span>
        <span className="req-outcome">
          <OutcomeBadge outcome={entry.outcome} attempts={entry.attempts.length} />
        </span>
        <span className="req-attempts mono" title="Attempts">
          {entry.attempts.length}×
          {entry.skipped.length > 0 && <span className="muted"> +{entry.skipped.length} skipped</span>}
        </span>
        <span className="req-wall mono" title="Wall time">
          {formatLatency(entry.wallMs)}
        </span>
      </button>
      {open && (
        <div id={traceId} className="request-trace">
          <TraceTimeline entry={entry} />
        </div>
      )}
    </li>
  );
}
