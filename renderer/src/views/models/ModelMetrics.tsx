import type { ModelStateView } from '../../../../router/api-types.js';
import { Sparkline } from '../../components/Sparkline.js';
import { formatLatency, formatPercent } from '../../lib/format.js';
import { failureWords } from '../../lib/labels.js';

/** A model's counters and recent performance: failures, trips, last failure, p50, success, latency trend. */
export function ModelMetrics({ model }: { model: ModelStateView }) {
  const { stats } = model;
  return (
    <dl className="model-metrics">
      <div className="metric-failures">
        <dt>failures in a row</dt>
        <dd className="mono">{model.consecutiveFailures}</dd>
      </div>
      <div className="metric-trips">
        <dt>trips</dt>
        <dd className="mono">{model.tripCount}</dd>
      </div>
      <div className="metric-last">
        <dt>last failure</dt>
        <dd>
          {/* A failure code is one word: it never breaks inside (`empty_choices`, not `empty_choic/es`). */}
          <span className="mono failure-code">{model.lastFailureKind ?? '–'}</span>
          {model.lastFailureKind && (
            <span className="block small muted">{failureWords(model.lastFailureKind)}</span>
          )}
        </dd>
      </div>
      <div className="metric-p50">
        <dt>p50</dt>
        <dd className="mono">{formatLatency(stats.p50LatencyMs)}</dd>
      </div>
      <div
        className="metric-success"
        title={`Over its last ${stats.attempts} attempts that judge the model: bad requests, 429s, refused keys and spent credit are left out`}
      >
        <dt>success</dt>
        <dd className="mono">{formatPercent(stats.successRate)}</dd>
      </div>
      <div className="metric-spark">
        <dt>latency, last {stats.recentLatencyMs.length}</dt>
        <dd>
          <Sparkline
            values={stats.recentLatencyMs}
            label={`Latency of the last ${stats.recentLatencyMs.length} attempts, oldest first`}
          />
        </dd>
      </div>
    </dl>
  );
}
