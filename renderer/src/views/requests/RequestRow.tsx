import { useId, useState } from 'react';
import type { HistoryEntry } from '../../../../router/api-types.js';
import { ModelKey } from '../../components/ModelKey.js';
import { OutcomeBadge } from '../../components/OutcomeBadge.js';
import { TraceTimeline } from '../../components/TraceTimeline.js';
import { formatClock, formatLatency, formatTokens } from '../../lib/format.js';
import { faceOf, FACE_LABELS, sourceOf } from '../../lib/request-source.js';

function Tokens({ entry }: { entry: HistoryEntry }) {
  const usage = entry.usage;
  if (!usage || (usage.promptTokens === null && usage.completionTokens === null)) {
    return <span className="muted">–</span>;
  }
  const text = (n: number | null) => (n === null ? '?' : formatTokens(n));
  return (
    <span
      title={`${usage.promptTokens ?? 'unknown'} prompt tokens in, ${usage.completionTokens ?? 'unknown'} completion tokens out`}
    >
      {text(usage.promptTokens)} → {text(usage.completionTokens)}
    </span>
  );
}

/** One request of the history; expands into its decision trace. */
export function RequestRow({ entry }: { entry: HistoryEntry }) {
  const [open, setOpen] = useState(false);
  const traceId = useId();
  const source = sourceOf(entry);
  const face = faceOf(entry);
  return (
    <li
      className={`request-row ${open ? 'is-open' : ''} ${source !== 'agent' ? 'is-test' : ''}`}
      data-request-id={entry.requestId}
      data-source={source}
    >
      <button
        type="button"
        className="request-summary"
        aria-expanded={open}
        aria-controls={traceId}
        onClick={() => setOpen(!open)}
      >
        <span className="req-time mono" title={`Started ${new Date(entry.at).toLocaleString()}`}>
          {formatClock(entry.at)}
        </span>
        <span className="req-client">
          {source !== 'agent' && <span className="tag tag-test">{source}</span>}{' '}
          {/* Broken only after a `/`, like a model's name: `opencode/` over `1.18.33`, never inside. */}
          <span className="req-agent" title="Agent (User-Agent)">
            {entry.client === null ? (
              <span className="muted">unknown agent</span>
            ) : (
              <ModelKey value={entry.client} className="agent-key" />
            )}
          </span>
          <span className="tag" title={`${FACE_LABELS[face]} API`}>
            {face}
          </span>
          {entry.stream && (
            <span className="tag tag-stream" title="Streamed answer">
              stream
            </span>
          )}
        </span>
        <span className="req-model" title="Requested model">
          <ModelKey value={entry.modelRequested} />
        </span>
        <span className="req-served" title="Served by">
          {entry.servedModel ? <ModelKey value={entry.servedModel} /> : <span className="muted">–</span>}
        </span>
        <span className="req-outcome">
          <OutcomeBadge outcome={entry.outcome} attempts={entry.attempts.length} />
        </span>
        <span className="req-attempts mono" title="Attempts">
          {entry.attempts.length}×
          {entry.skipped.length > 0 && <span className="muted"> +{entry.skipped.length} skipped</span>}
        </span>
        <span className="req-tokens mono">
          <Tokens entry={entry} />
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
