import { useId, useLayoutEffect, useRef, type RefObject } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import type { SetOrder } from '../../api/endpoints.js';
import { useConfig, useProviders, useRouterState } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { errorText, QueryStatus } from '../../components/QueryStatus.js';
import { UndoNotice } from '../../components/UndoNotice.js';
import { routingPositions } from '../../lib/routing-positions.js';
import { useNow } from '../../lib/use-now.js';
import { useRefreshAt } from '../../lib/use-refresh-at.js';
import { AddModel } from './AddModel.js';
import { DiscoverModels } from './DiscoverModels.js';
import { ModelRow } from './ModelRow.js';
import { SetBar } from './SetBar.js';
import { SetList } from './SetList.js';
import { useDragReorder } from './use-drag-reorder.js';
import { useSetEditor } from './use-set-editor.js';
import { countOf } from '../../lib/format.js';

/** How long "Undo" stays offered after a removal. */
const UNDO_MS = 15_000;

/** How long the focus waits for a row Undo brought back, once the undo's save is through. */
const REFOCUS_MS = 5000;

/** How the set's order is used, in words: the list below is always the set's own (priority) order. */
function orderHint(order: SetOrder): string {
  return order === 'fastest'
    ? 'This set routes its healthy models fastest first (by recent time to first byte); the order below breaks ties and places models not yet measured.'
    : 'The set’s order is its priority.';
}

/** The active set's models in the set's order, each with where the next request puts it. */
function SetRows({
  state,
  editor,
  drag,
  hintId,
  now,
}: {
  state: StateResponse;
  editor: ReturnType<typeof useSetEditor>;
  drag: Pick<ReturnType<typeof useDragReorder>, 'shown' | 'dragging' | 'handleProps'>;
  hintId: string;
  now: number;
}) {
  const byKey = new Map(state.models.map((m) => [m.key, m]));
  const positions = routingPositions(state.models, now);
  const spared = new Set<string>(state.recent?.spared ?? []);
  return (
    <>
      {drag.shown.map((key, i) => {
        const model = byKey.get(key);
        if (!model) return null;
        const index = editor.list.indexOf(key);
        return (
          <ModelRow
            key={key}
            model={model}
            priority={i + 1}
            routeAt={positions.get(key) ?? null}
            spared={spared.has(key)}
            dragging={drag.dragging === key}
            editing={{
              canMoveUp: index > 0,
              canMoveDown: index >= 0 && index < editor.list.length - 1,
              move: (delta) => editor.move(key, delta),
              remove: () => editor.remove(key),
              handle: drag.handleProps(key),
              handleHintId: hintId,
            }}
          />
        );
      })}
      {editor.list.length === 0 && (
        <li className="muted empty">No models in this set yet — add one below.</li>
      )}
    </>
  );
}

/**
 * Gives the focus back to a row's Remove button once the row is on screen: after Undo, the focus (on
 * Undo, which goes away) returns to the row that came back. `saving` is whether the set's save is on its
 * way, `failed` whether the last one failed.
 */
function useRemoveFocus(container: RefObject<HTMLOListElement | null>, saving: boolean, failed: boolean) {
  const wanted = useRef<{ key: string; until: number | null } | null>(null);
  // The row shows once the set has it back and the router's view lists its model: look on every render
  // while the undo's save is on its way, then for a few seconds more (an undo that failed brings no row
  // back). A slow save never runs the wait out. Within the wait the focus is given again whenever it has
  // fallen to the page (the row drawn anew as the router's view comes in, a focus that did not take), and
  // never taken from where the user put it.
  useLayoutEffect(() => {
    const want = wanted.current;
    if (want === null) return;
    if (failed || (!saving && want.until !== null && Date.now() >= want.until)) {
      wanted.current = null;
      return;
    }
    want.until = saving ? null : (want.until ?? Date.now() + REFOCUS_MS);
    const button = container.current?.querySelector<HTMLElement>(
      `[data-remove-for="${CSS.escape(want.key)}"]`,
    );
    const active = document.activeElement;
    if (button && button !== active && (active === null || active === document.body)) button.focus();
  });
  return {
    remove: (key: string) => {
      wanted.current = { key, until: null };
    },
  };
}

/**
 * The active set in the order the user edits (its priority), each model with its place in the next
 * request's routing order and its state beside it; drag a row (or use the arrow keys on its handle) to
 * reorder, remove with undo. Below, every set with its order (priority or fastest), rename and delete.
 */
export function ModelsView() {
  const { data: state, isPending, error } = useRouterState();
  const providers = useProviders();
  const orders = useConfig().data?.effective.router?.ranking?.order ?? {};
  const editor = useSetEditor(state);
  const { container, shown, dragging, announcement, handleProps } = useDragReorder(
    editor.list,
    editor.moveTo,
  );
  const hintId = useId();
  const refocus = useRemoveFocus(container, editor.pending, editor.error !== null);
  const now = useNow();
  useRefreshAt(state?.health.backAt ?? null);
  if (!state) return <QueryStatus isPending={isPending} error={error} what="models" />;
  const { removed } = editor;
  const title = (
    <>
      Set order{' '}
      <span className="muted small">
        set “{state.activeSet}”, {countOf(editor.list.length, 'model')}
      </span>
    </>
  );
  return (
    <Panel title={title} className="panel-wide">
      <SetBar state={state} />
      <SetList sets={state.sets} activeSet={state.activeSet} orders={orders} />
      {editor.error && <p className="field-error">{errorText(editor.error)}</p>}
      {removed && (
        <UndoNotice
          key={removed.key}
          what={
            <>
              Removed <code>{removed.key}</code> from the set.
            </>
          }
          ms={UNDO_MS}
          onUndo={() => {
            editor.undoRemove();
            refocus.remove(removed.key);
          }}
          onDismiss={editor.dismissRemoved}
          takeFocus
        />
      )}
      <p id={hintId} className="muted small">
        {orderHint(orders[state.activeSet] ?? 'priority')} Drag a row by its handle ⠿, or focus the handle and
        press ↑ or ↓, to move it. Beside each model: where the next request puts it; DEGRADED models route
        behind healthy ones until a cooldown passes without a failure, then take their place as a trial, and
        OPEN ones are skipped until their trial.
      </p>
      <ol className="model-list" aria-label="Active set in priority order" ref={container}>
        <SetRows
          state={state}
          editor={editor}
          drag={{ shown, dragging, handleProps }}
          hintId={hintId}
          now={now}
        />
      </ol>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <AddModel
        providers={providers.data?.providers}
        models={state.models}
        inSet={editor.list}
        busy={editor.pending}
        onAdd={editor.add}
      />
      {providers.data && <DiscoverModels providers={providers.data.providers} inSet={editor.list} />}
    </Panel>
  );
}
