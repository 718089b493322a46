import type { ModelStateView } from '../../../../router/api-types.js';
import type { ModelEvent } from '../../lib/model-series.js';

const HEIGHT = 30;
const MID = 15;

/**
 * The last hour of one model as a strip: a dot per attempt (green served, red failed), trials drawn as
 * diamonds, tests hollow, and the current cooldown shaded up to when the model is tried again.
 * Positions are percentages, so the strip takes any width without stretching its marks.
 */
export function ModelTimeline({
  model,
  events,
  from,
  to,
}: {
  model: ModelStateView;
  events: readonly ModelEvent[];
  from: number;
  to: number;
}) {
  const pct = (at: number): number => Math.min(100, Math.max(0, ((at - from) / (to - from)) * 100));
  const cooling =
    model.state === 'OPEN' && model.openUntil !== null && model.lastFailureAt !== null
      ? { start: pct(model.lastFailureAt), end: pct(Math.min(model.openUntil, to)) }
      : null;
  const failed = events.filter((e) => !e.ok).length;
  const trials = events.filter((e) => e.trial);
  const summary =
    `${events.length} attempts in the last hour: ${failed} failed, ${trials.length} trials ` +
    `(${trials.filter((e) => !e.ok).length} failed)${cooling ? ', cooling down now' : ''}`;
  return (
    <figure className="timeline">
      <svg width="100%" height={HEIGHT} role="img" aria-label={summary}>
        <line className="timeline-axis" x1="0" x2="100%" y1={MID} y2={MID} />
        {cooling && (
          <rect
            className="timeline-cooldown"
            x={`${cooling.start}%`}
            y={3}
            width={`${Math.max(0.5, cooling.end - cooling.start)}%`}
            height={HEIGHT - 6}
          />
        )}
        {events.map((e, i) => {
          const tone = `${e.ok ? 'timeline-ok' : 'timeline-fail'}${e.source === 'agent' ? '' : ' timeline-test'}`;
          return (
            <svg key={i} x={`${pct(e.at)}%`} y={MID} overflow="visible">
              {e.trial ? (
                <rect className={tone} x={-4} y={-4} width={8} height={8} transform="rotate(45)" />
              ) : (
                <circle className={tone} r={3.5} />
              )}
            </svg>
          );
        })}
      </svg>
      <figcaption className="timeline-scale muted small">
        <span>60 min ago</span>
        <span>30 min</span>
        <span>now</span>
      </figcaption>
    </figure>
  );
}
