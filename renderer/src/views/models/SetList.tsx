import { useState, type FormEvent } from 'react';
import type { SetOrder } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';
import { useSetActions } from './use-set-actions.js';

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

/** Asks for the new name, saying what happens to agents that name the set. */
function RenameForm({
  name,
  active,
  onRename,
  onCancel,
  busy,
}: {
  name: string;
  active: boolean;
  onRename(to: string): void;
  onCancel(): void;
  busy: boolean;
}) {
  const [to, setTo] = useState(name);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (to.trim() && to.trim() !== name) onRename(to.trim());
  };
  return (
    <form className="confirm-replace" onSubmit={submit} aria-label={`Rename set ${name}`}>
      <p>
        {active ? 'Agents’ fcm requests stay on this set under its new name; ' : ''}
        requests that name <code>fcm:{name}</code> must use the new name after.
      </p>
      <input
        aria-label={`New name for set ${name}`}
        value={to}
        onChange={(e) => setTo(e.target.value)}
        autoFocus
      />
      <button
        type="submit"
        className="btn btn-small btn-primary"
        disabled={busy || !to.trim() || to.trim() === name}
      >
        Rename “{name}”
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** Asks before a set is deleted, saying what it holds and what happens to requests naming it. */
function ConfirmDelete({
  name,
  count,
  onDelete,
  onCancel,
  busy,
}: {
  name: string;
  count: number;
  onDelete(): void;
  onCancel(): void;
  busy: boolean;
}) {
  return (
    <div className="confirm-replace" role="alertdialog" aria-label={`Delete set ${name}`}>
      <p>
        Delete the set “{name}” ({count} models)? Requests that name <code>fcm:{name}</code> are refused
        after; the models stay in the catalogue and in other sets.
      </p>
      <button type="button" className="btn btn-small btn-danger" onClick={onDelete} disabled={busy}>
        Delete “{name}”
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
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
  return (
    <li className="set-item" aria-label={`Set ${name}`}>
      <span className="set-name">
        <code>{name}</code>
        {active && <span className="tag">active</span>}
        <span className="muted small">{count} models</span>
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
        >
          Delete
        </button>
      </span>
      {asking === 'rename' && (
        <RenameForm
          name={name}
          active={active}
          onRename={(to) => actions.rename.mutate(to, done)}
          onCancel={() => setAsking(null)}
          busy={actions.rename.isPending}
        />
      )}
      {asking === 'delete' && (
        <ConfirmDelete
          name={name}
          count={count}
          onDelete={() => actions.remove.mutate(undefined, done)}
          onCancel={() => setAsking(null)}
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
