import { useHistory } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { formatLatency, formatPercent, formatTokens } from '../../lib/format.js';
import { OUTCOME_LABELS } from '../../lib/labels.js';

function Stat({
  label,
  value,
  tone,
  title,
}: {
  label: string;
  value: string | number;
  tone?: string;
  title?: string;
}) {
  return (
    <div className={`stat ${tone ? `stat-${tone}` : ''}`} title={title}>
      <span className="stat-value mono">{value}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

const counted = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The requests the rates leave out, by who sent them: "3 dashboard tests and 1 probe". */
export function leftOut(tests: number, probes: number): string {
  const dashboard = tests - probes;
  return [
    dashboard > 0 ? counted(dashboard, 'dashboard test') : '',
    probes > 0 ? counted(probes, 'probe') : '',
  ]
    .filter((part) => part !== '')
    .join(' and ');
}

/**
 * Today's agent requests since local midnight and the tokens they used (refusals apart: no model was
 * asked), plus rates over the retained history, each saying that window.
 */
export function TodayPanel() {
  const { data, isPending, error } = useHistory();
  const today = data?.stats.today;
  const agents = data ? data.stats.retained - data.stats.tests : 0;
  const window = `last ${agents} request${agents === 1 ? '' : 's'}`;
  return (
    <Panel title="Today">
      <QueryStatus isPending={isPending} error={error} what="statistics" />
      {data && today && (
        <>
          <div className="stats">
            <Stat label="served" value={today.servedFirstTry + today.servedAfterFailover} />
            <Stat label="failed over" value={today.servedAfterFailover} tone="failover" />
            <Stat label="all failed" value={today.failed} tone="bad" />
            <Stat
              label={OUTCOME_LABELS.rejected}
              value={today.refused}
              tone="refused"
              title="Rejected today, no model blamed: routing paused (503 router_paused), a pinned model the router does not have (404), or a request no model of the set can take (400)"
            />
            <Stat
              label="tokens in"
              value={formatTokens(today.promptTokens)}
              title={`${today.promptTokens} prompt tokens today`}
            />
            <Stat
              label="tokens out"
              value={formatTokens(today.completionTokens)}
              title={`${today.completionTokens} completion tokens today`}
            />
          </div>
          <dl className="facts facts-inline">
            <div>
              <dt>
                Failover rate <span className="muted">({window})</span>
              </dt>
              <dd className="mono">{agents ? formatPercent(data.stats.failoverRate) : '–'}</dd>
            </div>
            <div>
              <dt>
                Success rate <span className="muted">({window})</span>
              </dt>
              <dd className="mono">{agents ? formatPercent(data.stats.successRate) : '–'}</dd>
            </div>
            <div>
              <dt>
                Avg attempts <span className="muted">({window})</span>
              </dt>
              <dd className="mono">{agents ? data.stats.avgAttempts.toFixed(2) : '–'}</dd>
            </div>
            <div>
              <dt>
                Avg wall time <span className="muted">({window})</span>
              </dt>
              <dd className="mono">{agents ? formatLatency(data.stats.avgWallMs) : '–'}</dd>
            </div>
          </dl>
          {data.stats.tests > 0 && (
            <p className="muted small">
              Agent requests only: {leftOut(data.stats.tests, data.stats.probes)} not counted.
            </p>
          )}
        </>
      )}
    </Panel>
  );
}
