import { useMemo } from 'react';
import type { ModelStateView } from '../../../../router/api-types.js';
import { useHistory } from '../../api/queries.js';
import { LineChart } from '../../components/LineChart.js';
import { formatClock, formatLatency } from '../../lib/format.js';
import { modelEvents, modelSeries } from '../../lib/model-series.js';
import { chartEnd } from '../../lib/time-buckets.js';
import { useNow } from '../../lib/use-now.js';
import { ModelTimeline } from './ModelTimeline.js';
import { ModelUsage } from './ModelUsage.js';

const HOUR = 3_600_000;
/** The latest events listed in words under the picture. */
const LISTED = 8;

const latencyText = (ms: number): string =>
  ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;

/**
 * One model over the last hour: its success share and latency (agent requests), its tokens today and the
 * share of its free budget used, and the timeline of its attempts, served, failed and trials (tests included,
 * since a test can be the trial).
 */
export function ModelDetails({ model }: { model: ModelStateView }) {
  const { data } = useHistory();
  const entries = data?.entries;
  const end = chartEnd(useNow(30_000), entries);
  const series = useMemo(() => modelSeries(entries ?? [], model.key, end), [entries, model.key, end]);
  const events = useMemo(() => modelEvents(entries ?? [], model.key, end - HOUR), [entries, model.key, end]);
  const chart = useMemo(
    () => ({
      t: series.t,
      series: [
        { label: 'success', values: series.success, colour: '--state-closed', scale: 'y' as const },
        {
          label: 'p50 latency',
          values: series.latency,
          colour: '--state-half-open',
          scale: 'y2' as const,
          dashed: true,
        },
      ],
      left: { label: 'success %', format: (v: number) => `${v}%`, range: [0, 100] as [number, number] },
      right: { label: 'latency', format: latencyText, minTop: 100 },
      height: 140,
      summary: `${model.key} over the last hour: ${series.attempts} agent attempts, success share and median latency per 5 minutes`,
    }),
    [series, model.key],
  );
  return (
    <div className="model-details-body">
      <ul className="legend">
        <li className="legend-closed">success %</li>
        <li className="legend-half-open legend-dashed">p50 latency</li>
        <li className="legend-plain">
          <b className="mono">{series.attempts}</b> agent attempts in the last hour
        </li>
        <ModelUsage modelKey={model.key} />
      </ul>
      <LineChart {...chart} />
      <h4 className="subhead">Attempts in the last hour: served, failed and trials</h4>
      <ModelTimeline model={model} events={events} from={end - HOUR} to={end} />
      {events.length > 0 ? (
        <ol className="event-list" aria-label={`Latest events of ${model.key}`}>
          {events
            .slice(-LISTED)
            .reverse()
            .map((e, i) => (
              <li key={`${e.at}-${i}`} className={e.ok ? 'event-ok' : 'event-fail'}>
                <span className="mono">{formatClock(e.at)}</span>{' '}
                {e.trial ? (e.ok ? 'trial passed' : 'trial failed') : e.ok ? 'served' : 'failed'}
                {e.kind && <span className="mono"> {e.kind}</span>}
                <span className="muted"> · {formatLatency(e.latencyMs)}</span>
                {e.source !== 'agent' && <span className="tag">{e.source}</span>}
              </li>
            ))}
        </ol>
      ) : (
        <p className="muted small">No attempt at this model in the last hour.</p>
      )}
    </div>
  );
}
