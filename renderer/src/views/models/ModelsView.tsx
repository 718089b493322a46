import { useProviders, useRouterState } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { errorText, QueryStatus } from '../../components/QueryStatus.js';
import { AddModel } from './AddModel.js';
import { ModelRow } from './ModelRow.js';
import { SetBar } from './SetBar.js';
import { useSetEditor } from './use-set-editor.js';

/** The active set in live routing order, each model's breaker and performance, and the set editor. */
export function ModelsView() {
  const { data: state, isPending, error } = useRouterState();
  const providers = useProviders();
  const editor = useSetEditor(state);
  if (!state) return <QueryStatus isPending={isPending} error={error} what="models" />;
  const active = state.models.filter((m) => m.inActiveSet);

  return (
    <Panel
      title={
        <>
          Routing order{' '}
          <span className="muted small">
            set “{state.activeSet}”, {active.length} models
          </span>
        </>
      }
      className="panel-wide"
    >
      <SetBar state={state} />
      {editor.error && <p className="field-error">{errorText(editor.error)}</p>}
      <ol className="model-list" aria-label="Active set in routing order">
        {active.map((model, i) => {
          const index = editor.list.indexOf(model.key);
          return (
            <ModelRow
              key={model.key}
              model={model}
              position={i + 1}
              priority={index + 1}
              threshold={state.failureThreshold}
              editing={{
                canMoveUp: index > 0,
                canMoveDown: index >= 0 && index < editor.list.length - 1,
                busy: editor.pending,
                move: (delta) => editor.move(model.key, delta),
                remove: () => editor.remove(model.key),
              }}
            />
          );
        })}
        {active.length === 0 && <li className="muted empty">No models in this set yet — add one below.</li>}
      </ol>
      <AddModel
        providers={providers.data?.providers}
        models={state.models}
        inSet={editor.list}
        busy={editor.pending}
        onAdd={editor.add}
      />
      <p className="muted small">
        Order is the set’s priority; DEGRADED models route behind healthy ones and OPEN ones are skipped until
        their trial. ↑/↓ change the priority.
      </p>
    </Panel>
  );
}
