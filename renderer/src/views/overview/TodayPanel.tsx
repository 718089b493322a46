import { useHistory } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { formatLatency, formatPercent } from '../../lib/format.js';

function Stat({ label, value, tone }: { label: string; value: string | number; tone?: string }) {
  return (
    <div className={`stat ${tone ? `stat-${tone}` : ''}`}>
      <span className="stat-value mono">{value}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

/** Today's counts since local midnight, plus the rates over the retained history. */
export function TodayPanel() {
  const { data, isPending, error } = useHistory();
  const today = data?.stats.today;
  return (
    <Panel title="Today">
      <QueryStatus isPending={isPending} error={error} what="statistics" />
      {data && today && (
        <>
          <div className="stats">
            <Stat label="served" value={today.servedFirstTry + today.servedAfterFailover} />
            <Stat label="failed over" value={today.servedAfterFailover} tone="failover" />
            <Stat label="all failed" value={today.failed} tone="bad" />
          </div>
          <dl className="facts facts-inline">
            <div>
              <dt>Failover rate</dt>
              <dd className="mono">{formatPercent(data.stats.failoverRate)}</dd>
            </div>
            <div>
              <dt>Success rate</dt>
              <dd className="mono">{data.stats.retained ? formatPercent(data.stats.successRate) : '–'}</dd>
            </div>
            <div>
              <dt>Avg attempts</dt>
              <dd className="mono">{data.stats.retained ? data.stats.avgAttempts.toFixed(2) : '–'}</dd>
            </div>
            <div>
              <dt>Avg wall time</dt>
              <dd className="mono">{data.stats.retained ? formatLatency(data.stats.avgWallMs) : '–'}</dd>
            </div>
          </dl>
        </>
      )}
    </Panel>
  );
}
