import { useMemo } from 'react';
import { useHistory } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { RequestsChart } from '../../components/RequestsChart.js';
import { formatPercent } from '../../lib/format.js';
import { bucketOutcomes, seriesTotals } from '../../lib/history-buckets.js';
import { useNow } from '../../lib/use-now.js';

/** The last hour of requests by outcome, and the failover rate. */
export function ActivityPanel() {
  const { data } = useHistory();
  // The buckets move on with the clock even when no request arrives.
  const minute = Math.floor(useNow(30_000) / 60_000);
  const series = useMemo(() => bucketOutcomes(data?.entries ?? [], minute * 60_000 + 59_999), [data, minute]);
  const totals = seriesTotals(series);
  const served = totals.firstTry + totals.afterFailover;
  return (
    <Panel title="Last hour" className="panel-wide">
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
        <li className="legend-half-open">
          failover rate <b className="mono">{formatPercent(served ? totals.afterFailover / served : null)}</b>
        </li>
      </ul>
      <RequestsChart series={series} />
    </Panel>
  );
}
