import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ModelStateView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { testThroughRouter } from '../../api/test-model.js';
import { ModelHealth } from '../../components/ModelHealth.js';
import { ModelKey } from '../../components/ModelKey.js';
import { errorText } from '../../components/QueryStatus.js';
import { Sparkline } from '../../components/Sparkline.js';
import { formatLatency, formatPercent } from '../../lib/format.js';
import { SKIP_HINTS, failureWords } from '../../lib/labels.js';
import { SPARED_WORDS } from '../../lib/model-reason.js';
import { ordinal } from '../../lib/routing-positions.js';
import { ModelDetails } from './ModelDetails.js';
import { ProbeControl } from './ProbeControl.js';
import { QuotaPauseWhy } from './QuotaPauseWhy.js';
import { TestResultView } from './TestResultView.js';
import type { HandleProps } from './use-drag-reorder.js';

/** What a row may do to the active set; the parent owns the set. */
export interface RowEditing {
  canMoveUp: boolean;
  canMoveDown: boolean;
  move(delta: number): void;
  remove(): void;
  handle: HandleProps;
  /** The element id of the text that explains the handle. */
  handleHintId: string;
}

function needsReset(m: ModelStateView): boolean {
  return m.state !== 'CLOSED' || m.consecutiveFailures > 0 || m.authBlocked || m.quotaPausedUntil !== null;
}

/** Where the next request puts this model: its place in the routing order, or why it is skipped. */
function RoutingPlace({ model, routeAt }: { model: ModelStateView; routeAt: number | null }) {
  if (routeAt !== null) {
    return (
      <span className="route-at" title="Place in the order the next request tries the set">
        routes {ordinal(routeAt)}
      </span>
    );
  }
  const why = model.blockedBy ? SKIP_HINTS[model.blockedBy] : 'breaker OPEN';
  return (
    <span className="route-at route-skipped" title="The next request skips this model">
      skipped: {why}
    </span>
  );
}

/** One model of the active set, in the set's order: its place, health, counters, recent performance, actions. */
export function ModelRow({
  model,
  priority,
  routeAt,
  spared = false,
  dragging,
  editing,
}: {
  model: ModelStateView;
  /** Place in the set's own order (1-based): what the user edits. */
  priority: number;
  /** Place in the routing order of the next request, or null when it is skipped. */
  routeAt: number | null;
  /** The newest requests could not reach it, and the offline rule did not hold that against it. */
  spared?: boolean;
  dragging: boolean;
  editing: RowEditing;
}) {
  const client = useQueryClient();
  const detailsId = useId();
  const [open, setOpen] = useState(false);
  const reset = useMutation({
    mutationFn: () => api.resetModel(model.key),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  const test = useMutation({
    mutationFn: () => testThroughRouter(model.key, model.state),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  const { stats } = model;
  const name = model.key;

  return (
    <li className={`model-row ${dragging ? 'is-dragging' : ''}`} aria-label={name} data-set-key={name}>
      <span className="model-grip">
        <button
          type="button"
          className="drag-handle"
          aria-label={`Reorder ${name} (place ${priority})`}
          aria-describedby={editing.handleHintId}
          {...editing.handle}
        >
          <span aria-hidden="true">⠿</span>
        </button>
        <span className="model-pos mono" title="Place in the set (its priority)">
          {priority}
        </span>
      </span>
      <div className="model-name">
        <ModelKey value={name} />
        {model.label && <span className="muted small">{model.label}</span>}
        {!model.providerEnabled && <span className="tag">provider disabled</span>}
      </div>
      <div className="model-health-cell">
        <ModelHealth model={model} />
        <RoutingPlace model={model} routeAt={routeAt} />
        {spared && <span className="small model-spared">{SPARED_WORDS}</span>}
        <QuotaPauseWhy model={model} />
      </div>
      <dl className="model-metrics">
        <div className="metric-failures">
          <dt>failures since last success</dt>
          <dd className="mono">{model.consecutiveFailures}</dd>
        </div>
        <div className="metric-trips">
          <dt>trips</dt>
          <dd className="mono">{model.tripCount}</dd>
        </div>
        <div className="metric-last">
          <dt>last failure</dt>
          <dd>
            <span className="mono">{model.lastFailureKind ?? '–'}</span>
            {model.lastFailureKind && (
              <span className="block small muted">{failureWords(model.lastFailureKind)}</span>
            )}
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
          <dt>latency, last {stats.recentLatencyMs.length}</dt>
          <dd>
            <Sparkline
              values={stats.recentLatencyMs}
              label={`Latency of the last ${stats.recentLatencyMs.length} attempts, oldest first`}
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
          title="One pinned request through the router; for an OPEN model it is its trial"
        >
          {test.isPending ? 'Testing…' : 'Test'}
        </button>
        <ProbeControl modelKey={name} last={model.lastProbe} />
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
          className="btn btn-small"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
          aria-label={`History of ${name}`}
        >
          History
        </button>
        <button
          type="button"
          className="btn btn-icon"
          onClick={() => editing.move(-1)}
          disabled={!editing.canMoveUp}
          aria-label={`Move ${name} up`}
        >
          ↑
        </button>
        <button
          type="button"
          className="btn btn-icon"
          onClick={() => editing.move(1)}
          disabled={!editing.canMoveDown}
          aria-label={`Move ${name} down`}
        >
          ↓
        </button>
        <button
          type="button"
          className="btn btn-icon btn-danger"
          onClick={editing.remove}
          aria-label={`Remove ${name} from the set`}
        >
          ×
        </button>
      </div>
      <div className="model-feedback" aria-live="polite">
        {test.data && <TestResultView result={test.data} />}
        {reset.error && <span className="field-error">{errorText(reset.error)}</span>}
      </div>
      {open && (
        <div id={detailsId} className="model-details">
          <ModelDetails model={model} />
        </div>
      )}
    </li>
  );
}
