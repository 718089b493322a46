import type { AttemptView, HistoryEntry, SkipView } from '../../../router/api-types.js';
import { formatLatency } from '../lib/format.js';
import { FAILURE_HINTS, OUTCOME_LABELS, ROLE_LABELS, SKIP_HINTS } from '../lib/labels.js';
import { ModelKey } from './ModelKey.js';

type TraceEntry = Pick<
  HistoryEntry,
  | 'requestId'
  | 'attempts'
  | 'skipped'
  | 'outcome'
  | 'servedModel'
  | 'clientStatus'
  | 'wallMs'
  | 'lastResortUsed'
  | 'sticky'
  | 'behind'
  | 'size'
  | 'refusal'
>;

/** What a fit skip was over (a window or TPM limit) or when the minute has room again. */
function skipFigure(skip: SkipView): string | null {
  if (skip.limit !== undefined) return `limit ${skip.limit.toLocaleString('en-US')} tokens`;
  if (skip.until !== undefined) return `room again at ${new Date(skip.until).toLocaleTimeString()}`;
  return null;
}

function SkipStep({ skip }: { skip: SkipView }) {
  return (
    <li className="trace-step trace-skip">
      <span className="trace-marker" aria-hidden="true" />
      <span className="trace-what">skipped</span>
      <ModelKey value={skip.model} />
      <span className="trace-detail">
        <span className="mono">{skip.reason}</span> <span className="muted">— {SKIP_HINTS[skip.reason]}</span>
        {skipFigure(skip) !== null && <span className="mono">{skipFigure(skip)}</span>}
      </span>
    </li>
  );
}

/** A model the order put behind the others: it refused a request another model served within the hour. */
function BehindStep({ model }: { model: string }) {
  return (
    <li className="trace-step trace-skip">
      <span className="trace-marker" aria-hidden="true" />
      <span className="trace-what">asked last</span>
      <ModelKey value={model} />
      <span className="trace-detail">
        <span className="muted">— it refused a request another model served within the hour</span>
      </span>
    </li>
  );
}

function AttemptStep({ attempt, index, wallMs }: { attempt: AttemptView; index: number; wallMs: number }) {
  const ok = attempt.kind === null;
  const share = wallMs > 0 ? Math.min(100, Math.max(1, (100 * attempt.latencyMs) / wallMs)) : 0;
  const role = ROLE_LABELS[attempt.role];
  return (
    <li className={`trace-step trace-attempt ${ok ? 'trace-ok' : 'trace-fail'}`}>
      <span className="trace-marker" aria-hidden="true" />
      <span className="trace-what">attempt {index + 1}</span>
      <ModelKey value={attempt.model} />
      <span className="trace-detail">
        {ok ? (
          <span className="badge outcome-ok">served</span>
        ) : (
          <span className="badge outcome-bad" title={attempt.kind ? FAILURE_HINTS[attempt.kind] : undefined}>
            {attempt.kind}
          </span>
        )}
        <span className="mono">{attempt.status === null ? 'no response' : `HTTP ${attempt.status}`}</span>
        <span className="trace-bar" aria-hidden="true">
          <span style={{ width: `${share}%` }} />
        </span>
        <span className="mono">{formatLatency(attempt.latencyMs)}</span>
        <span className="muted">breaker was {attempt.breakerBefore}</span>
        {role && (
          <span className="tag" title={role.hint}>
            {role.tag}
          </span>
        )}
        {attempt.key !== undefined && (
          <span className="muted mono" title="the fingerprint of the provider key used (a hash of the key)">
            key {attempt.key}
          </span>
        )}
        {attempt.note !== undefined && (
          <span className="muted" title="what the router changed in this attempt's request or answer">
            {attempt.note}
          </span>
        )}
      </span>
    </li>
  );
}

/**
 * A request's decision trace as a timeline: every skipped candidate with its reason, the models asked last
 * for refusing what another model served, every attempt with model, status or failure kind and latency,
 * then what the agent got. Routing metadata only — the history
 * holds no prompt or completion text, so none can show here.
 */
export function TraceTimeline({ entry }: { entry: TraceEntry }) {
  const served = entry.outcome === 'served' && entry.servedModel !== null;
  return (
    <ol className="trace" aria-label={`Decision trace of ${entry.requestId}`}>
      {entry.skipped.map((skip, i) => (
        <SkipStep key={`s${i}`} skip={skip} />
      ))}
      {entry.behind?.map((model) => (
        <BehindStep key={`b${model}`} model={model} />
      ))}
      {entry.attempts.map((attempt, i) => (
        <AttemptStep key={`a${i}`} attempt={attempt} index={i} wallMs={entry.wallMs} />
      ))}
      <li className={`trace-step trace-end ${served ? 'trace-ok' : 'trace-fail'}`}>
        <span className="trace-marker" aria-hidden="true" />
        <span className="trace-what">{served ? 'served by' : OUTCOME_LABELS[entry.outcome]}</span>
        {served && entry.servedModel !== null && <ModelKey value={entry.servedModel} />}
        <span className="trace-detail">
          <span className="mono">HTTP {entry.clientStatus} to the agent</span>
          {entry.refusal !== undefined && (
            <span className="mono" title="The error's code, and the request field at fault">
              {entry.refusal.code}
              {entry.refusal.param !== undefined && ` at ${entry.refusal.param}`}
            </span>
          )}
          <span className="mono">{formatLatency(entry.wallMs)} total</span>
          {entry.lastResortUsed && <span className="tag">last resort</span>}
          {entry.sticky !== undefined && (
            <span
              className="tag"
              title={`The conversation was on ${entry.sticky}: tried first, ahead of the set's order`}
            >
              sticky
            </span>
          )}
          {entry.size !== undefined && (
            <span className="muted mono" title="estimated size: input and requested output">
              ~{entry.size.toLocaleString('en-US')} tokens
            </span>
          )}
        </span>
      </li>
    </ol>
  );
}
