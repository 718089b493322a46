import { useRef, useState } from 'react';
import type { SetOrder } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';
import { ConfirmDelete, RenameForm } from './SetQuestions.js';
import { useSetActions } from './use-set-actions.js';
import { countOf } from '../../lib/format.js';

const ORDER_HINTS: Record<SetOrder, string> = {
  priority: 'the set’s own order, healthy models first',
  fastest: 'healthy models by their recent time to first byte; the set’s order breaks ties',
};

/** `priority` or `fastest` for one set; the router applies it from the next request on. */
function OrderSwitch({
  name,
  order,
  onChange,
  busy,
}: {
  name: string;
  order: SetOrder;
  onChange(o: SetOrder): void;
  busy: boolean;
}) {
  return (
    <div className="segmented set-order" role="group" aria-label={`Order of set ${name}`}>
      {(['priority', 'fastest'] as const).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={order === option}
          title={ORDER_HINTS[option]}
          disabled={busy}
          onClick={() => order !== option && onChange(option)}
        >
          {option}
        </button>
      ))}
    </div>
  );
}

/** One set: its size, whether agents use it, its order switch, rename and delete (each confirmed). */
function SetItem({
  name,
  count,
  active,
  order,
}: {
  name: string;
  count: number;
  active: boolean;
  order: SetOrder;
}) {
  const [asking, setAsking] = useState<'rename' | 'delete' | null>(null);
  const actions = useSetActions(name);
  const done = { onSuccess: () => setAsking(null) };
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  // A question put away leaves the keyboard on the button that asked it.
  const cancel = (): void => {
    (asking === 'rename' ? renameButton : deleteButton).current?.focus();
    setAsking(null);
  };
  return (
    <li className="set-item" aria-label={`Set ${name}`}>
      <span className="set-name">
        <code>{name}</code>
        {active && <span className="tag">active</span>}
        <span className="muted small">{countOf(count, 'model')}</span>
      </span>
      <OrderSwitch
        name={name}
        order={order}
        onChange={(o) => actions.order.mutate(o)}
        busy={actions.order.isPending}
      />
      <span className="set-actions">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setAsking('rename')}
          aria-label={`Rename set ${name}`}
          ref={renameButton}
        >
          Rename
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger"
          onClick={() => setAsking('delete')}
          disabled={active}
          title={active ? 'The active set: switch agents to another set first' : undefined}
          aria-label={`Delete set ${name}`}
          ref={deleteButton}
        >
          Delete
        </button>
      </span>
      {asking === 'rename' && (
        <RenameForm
          name={name}
          active={active}
          onRename={(to) => actions.rename.mutate(to, done)}
          onCancel={cancel}
          busy={actions.rename.isPending}
        />
      )}
      {asking === 'delete' && (
        <ConfirmDelete
          name={name}
          count={count}
          onDelete={() => actions.remove.mutate(undefined, done)}
          onCancel={cancel}
          busy={actions.remove.isPending}
        />
      )}
      {actions.error && <span className="field-error">{errorText(actions.error)}</span>}
    </li>
  );
}

/** Every set with its order (priority or fastest), and rename and delete, each asked first. */
export function SetList({
  sets,
  activeSet,
  orders,
}: {
  sets: Readonly<Record<string, readonly string[]>>;
  activeSet: string;
  orders: Readonly<Record<string, SetOrder>>;
}) {
  return (
    <details className="set-list" open>
      <summary>Sets and their order</summary>
      <ul aria-label="Sets">
        {Object.entries(sets).map(([name, models]) => (
          <SetItem
            key={name}
            name={name}
            count={models.length}
            active={name === activeSet}
            order={orders[name] ?? 'priority'}
          />
        ))}
      </ul>
    </details>
  );
}
