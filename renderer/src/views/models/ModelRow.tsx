import { useId, useState } from 'react';
import type { ModelStateView } from '../../../../router/api-types.js';
import { ModelHealth } from '../../components/ModelHealth.js';
import { ModelKey } from '../../components/ModelKey.js';
import { SKIP_HINTS } from '../../lib/labels.js';
import { SPARED_WORDS, ignoredForcedWords, refusalWords } from '../../lib/model-reason.js';
import { trialNext } from '../../lib/model-status.js';
import { useNow } from '../../lib/use-now.js';
import { ordinal } from '../../lib/routing-positions.js';
import { ModelActions } from './ModelActions.js';
import { ModelDetails } from './ModelDetails.js';
import { ModelMetrics } from './ModelMetrics.js';
import { QuotaPauseWhy } from './QuotaPauseWhy.js';
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

/** Where the next request puts this model: its place in the routing order, or why it is skipped. */
function RoutingPlace({ model, routeAt }: { model: ModelStateView; routeAt: number | null }) {
  const now = useNow();
  if (routeAt !== null) {
    return (
      <span className="route-at" title="Place in the order the next request tries the set">
        routes {ordinal(routeAt)}
        {trialNext(model, now) && ', as its trial'}
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

/** The drag handle and the row's place in the set (its priority). */
function Grip({ name, priority, editing }: { name: string; priority: number; editing: RowEditing }) {
  return (
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
  const detailsId = useId();
  const [open, setOpen] = useState(false);
  const name = model.key;
  const refused = refusalWords(model);
  const ignored = ignoredForcedWords(model);
  return (
    <li className={`model-row ${dragging ? 'is-dragging' : ''}`} aria-label={name} data-set-key={name}>
      <Grip name={name} priority={priority} editing={editing} />
      <div className="model-name">
        <ModelKey value={name} />
        {model.label && <span className="muted small">{model.label}</span>}
        {/* A model of no provider the router knows has nothing to disable: its reason says what it is. */}
        {!model.providerEnabled && model.blockedBy !== 'unknown_model' && (
          <span className="tag">provider switched off</span>
        )}
      </div>
      <div className="model-health-cell">
        <ModelHealth model={model} />
        <RoutingPlace model={model} routeAt={routeAt} />
        {spared && <span className="small model-spared">{SPARED_WORDS}</span>}
        <QuotaPauseWhy model={model} />
        {refused && <span className="small model-refused-why">{refused}</span>}
        {ignored && <span className="small model-ignored-why">{ignored}</span>}
      </div>
      <ModelMetrics model={model} />
      <ModelActions
        model={model}
        editing={editing}
        details={{ id: detailsId, open, toggle: () => setOpen(!open) }}
      />
      {open && (
        <div id={detailsId} className="model-details">
          <ModelDetails model={model} />
        </div>
      )}
    </li>
  );
}
