import { useMemo } from 'react';
import { useHistory } from '../../api/queries.js';
import { LineChart } from '../../components/LineChart.js';
import { Panel } from '../../components/Panel.js';
import { RequestsChart } from '../../components/RequestsChart.js';
import { formatLatency, formatPercent } from '../../lib/format.js';
import { bucketOutcomes, seriesTotals } from '../../lib/history-buckets.js';
import { chartEnd } from '../../lib/time-buckets.js';
import { bucketFirstByte, firstByteSummary } from '../../lib/latency.js';
import { OUTCOME_LABELS } from '../../lib/labels.js';
import { useNow } from '../../lib/use-now.js';

const seconds = (ms: number): string =>
  ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;

/** The agents' last hour: requests by outcome and the failover rate, then the time to first byte. */
export function ActivityPanel() {
  const { data } = useHistory();
  const entries = data?.entries;
  // The buckets move on with the clock even when no request arrives, and take in one as it arrives.
  const end = chartEnd(useNow(30_000), entries);
  const series = useMemo(() => bucketOutcomes(entries ?? [], end), [entries, end]);
  const firstByte = useMemo(() => bucketFirstByte(entries ?? [], end), [entries, end]);
  const summary = useMemo(() => firstByteSummary(entries ?? [], end), [entries, end]);
  const totals = seriesTotals(series);
  const served = totals.firstTry + totals.afterFailover;
  const latency = useMemo(
    () => ({
      t: firstByte.t,
      series: [
        { label: 'p50', values: firstByte.p50, colour: '--state-closed', scale: 'y' as const },
        {
          label: 'p95',
          values: firstByte.p95,
          colour: '--state-degraded',
          scale: 'y' as const,
          dashed: true,
        },
      ],
      left: { label: 'time to first byte', format: seconds, minTop: 100 },
      summary: `Time to first byte over the last hour: p50 ${formatLatency(summary.p50)}, p95 ${formatLatency(summary.p95)}`,
    }),
    [firstByte, summary],
  );
  return (
    <Panel title="Last hour (agent requests)" className="panel-wide">
      <ul className="legend">
        <li className="legend-closed">
          served first try <b className="mono">{totals.firstTry}</b>
        </li>
        <li className="legend-degraded">
          served after failover <b className="mono">{totals.afterFailover}</b>
        </li>
        <li className="legend-open">
          failed <b className="mono">{totals.failed}</b>
        </li>
        <li
          className="legend-refused"
          title="Rejected without asking a model: routing paused, an unknown model name"
        >
          {OUTCOME_LABELS.rejected} <b className="mono">{totals.refused}</b>
        </li>
        <li className="legend-half-open">
          failover rate <b className="mono">{formatPercent(served ? totals.afterFailover / served : null)}</b>
        </li>
      </ul>
      <RequestsChart series={series} />
      <h3 className="subhead">Time to first byte</h3>
      <ul className="legend" aria-label="Time to first byte, last hour">
        <li className="legend-closed">
          p50 <b className="mono">{formatLatency(summary.p50)}</b>
        </li>
        <li className="legend-degraded legend-dashed">
          p95 <b className="mono">{formatLatency(summary.p95)}</b>
        </li>
        <li className="legend-plain">
          over <b className="mono">{summary.count}</b> served requests
        </li>
      </ul>
      <LineChart {...latency} />
    </Panel>
  );
}
