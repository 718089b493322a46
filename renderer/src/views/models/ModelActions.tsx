import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModelStateView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { testThroughRouter } from '../../api/test-model.js';
import { errorText } from '../../components/QueryStatus.js';
import { ProbeControl } from './ProbeControl.js';
import { TestResultView } from './TestResultView.js';
import type { RowEditing } from './ModelRow.js';

function needsReset(m: ModelStateView): boolean {
  return (
    m.state !== 'CLOSED' ||
    m.consecutiveFailures > 0 ||
    m.authBlocked ||
    m.quotaPausedUntil !== null ||
    m.refusedServedAt !== null ||
    m.ignoredForcedAt !== null
  );
}

/** Moves a row one place up or down, or takes it out of the set. */
function EditButtons({ name, editing }: { name: string; editing: RowEditing }) {
  return (
    <span className="row-moves">
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
        data-remove-for={name}
      >
        ×
      </button>
    </span>
  );
}

/**
 * A model row's actions (test, probe, reset, history, move, remove) and what the last test or reset said.
 */
export function ModelActions({
  model,
  editing,
  details,
}: {
  model: ModelStateView;
  editing: RowEditing;
  /** The history panel this row shows or hides. */
  details: { id: string; open: boolean; toggle(): void };
}) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.state });
  const reset = useMutation({ mutationFn: () => api.resetModel(model.key), onSettled: refresh });
  const test = useMutation({
    mutationFn: () => testThroughRouter(model.key, model.state),
    onSettled: refresh,
  });
  const name = model.key;
  return (
    <>
      <div className="model-actions">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => test.mutate()}
          disabled={test.isPending}
          title="One pinned request through the router; for an OPEN model it is its trial"
          aria-label={`Test ${name}`}
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
          aria-expanded={details.open}
          aria-controls={details.id}
          onClick={details.toggle}
          aria-label={`History of ${name}`}
        >
          History
        </button>
        <EditButtons name={name} editing={editing} />
      </div>
      <div className="model-feedback" aria-live="polite">
        {test.data && <TestResultView result={test.data} />}
        {reset.error && <span className="field-error">{errorText(reset.error)}</span>}
      </div>
    </>
  );
}
