import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModelStateView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { testThroughRouter } from '../../api/test-model.js';
import { ModelHealth } from '../../components/ModelHealth.js';
import { errorText } from '../../components/QueryStatus.js';
import { Sparkline } from '../../components/Sparkline.js';
import { formatLatency, formatPercent } from '../../lib/format.js';
import { FAILURE_HINTS } from '../../lib/labels.js';
import { TestResultView } from './TestResultView.js';

/** What a row may do to the active set; the parent owns the set. */
export interface RowEditing {
  canMoveUp: boolean;
  canMoveDown: boolean;
  busy: boolean;
  move(delta: number): void;
  remove(): void;
}

function needsReset(m: ModelStateView): boolean {
  return m.state !== 'CLOSED' || m.consecutiveFailures > 0 || m.authBlocked || m.quotaPausedUntil !== null;
}

/** One model of the active set: health, counters, recent performance and its actions. */
export function ModelRow({
  model,
  position,
  priority,
  threshold,
  editing,
}: {
  model: ModelStateView;
  position: number;
  /** Place in the set's own order (1-based); differs from `position` when health reorders. */
  priority: number;
  threshold: number;
  editing: RowEditing;
}) {
  const client = useQueryClient();
  const reset = useMutation({
    mutationFn: () => api.resetModel(model.key),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  const test = useMutation({
    mutationFn: () => testThroughRouter(model.key),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  const { stats } = model;
  const name = model.key;

  return (
    <li className="model-row" aria-label={name}>
      <span className="model-pos mono" title="Routing position">
        {position}
      </span>
      <div className="model-name">
        <code className="model-key">{name}</code>
        {model.label && <span className="muted small">{model.label}</span>}
        {priority !== position && (
          <span className="tag" title="Priority in the set; health moved it in the routing order">
            set #{priority}
          </span>
        )}
        {model.missingKey && <span className="tag tag-warn">no key</span>}
        {!model.providerEnabled && <span className="tag">provider disabled</span>}
      </div>
      <div className="model-health-cell">
        <ModelHealth model={model} />
      </div>
      <dl className="model-metrics">
        <div className="metric-failures">
          <dt>failures</dt>
          <dd className="mono">
            {model.consecutiveFailures}/{threshold}
          </dd>
        </div>
        <div className="metric-trips">
          <dt>trips</dt>
          <dd className="mono">{model.tripCount}</dd>
        </div>
        <div className="metric-last">
          <dt>last failure</dt>
          <dd
            className="mono"
            title={model.lastFailureKind ? FAILURE_HINTS[model.lastFailureKind] : undefined}
          >
            {model.lastFailureKind ?? '–'}
          </dd>
        </div>
        <div className="metric-p50">
          <dt>p50</dt>
          <dd className="mono">{formatLatency(stats.p50LatencyMs)}</dd>
        </div>
        <div className="metric-success">
          <dt>success</dt>
          <dd className="mono">{formatPercent(stats.successRate)}</dd>
        </div>
        <div className="metric-spark">
          <dt className="sr-only">latency trend</dt>
          <dd>
            <Sparkline
              values={stats.recentLatencyMs}
              label={`Latency of the last ${stats.recentLatencyMs.length} attempts`}
            />
          </dd>
        </div>
      </dl>
      <div className="model-actions">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => test.mutate()}
          disabled={test.isPending}
        >
          {test.isPending ? 'Testing…' : 'Test'}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => reset.mutate()}
          disabled={reset.isPending || !needsReset(model)}
          aria-label={`Reset breaker of ${name}`}
        >
          Reset
        </button>
        <button
          type="button"
          className="btn btn-icon"
          onClick={() => editing.move(-1)}
          disabled={editing.busy || !editing.canMoveUp}
          aria-label={`Move ${name} up`}
        >
          ↑
        </button>
        <button
          type="button"
          className="btn btn-icon"
          onClick={() => editing.move(1)}
          disabled={editing.busy || !editing.canMoveDown}
          aria-label={`Move ${name} down`}
        >
          ↓
        </button>
        <button
          type="button"
          className="btn btn-icon btn-danger"
          onClick={editing.remove}
          disabled={editing.busy}
          aria-label={`Remove ${name} from the set`}
        >
          ×
        </button>
      </div>
      <div className="model-feedback" aria-live="polite">
        {test.data && <TestResultView result={test.data} />}
        {reset.error && <span className="field-error">{errorText(reset.error)}</span>}
      </div>
    </li>
  );
}
