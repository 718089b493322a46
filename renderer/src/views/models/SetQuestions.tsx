/** The questions set management asks before it renames or deletes a set. */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { countOf } from '../../lib/format.js';

/** Escape answers a question as its Cancel does. */
function cancelOnEscape(onCancel: () => void) {
  return (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  };
}

/** Asks for the new name, saying what happens to agents that name the set; Escape cancels. */
export function RenameForm({
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
    <form
      className="confirm-replace"
      onSubmit={submit}
      onKeyDown={cancelOnEscape(onCancel)}
      aria-label={`Rename set ${name}`}
    >
      <p>
        Rename set “{name}”?{' '}
        {active ? (
          <>
            Agents’ fcm requests stay on this set under its new name; requests that name{' '}
            <code>fcm:{name}</code> must use the new name after.
          </>
        ) : (
          <>
            Requests that name <code>fcm:{name}</code> must use the new name after.
          </>
        )}
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

/** Asks before a set is deleted, saying what it holds and what happens to requests naming it; Escape cancels. */
export function ConfirmDelete({
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
    <div
      className="confirm-replace"
      role="alertdialog"
      aria-label={`Delete set ${name}`}
      onKeyDown={cancelOnEscape(onCancel)}
    >
      <p>
        Delete the set “{name}” ({countOf(count, 'model')})? Requests that name <code>fcm:{name}</code> are
        refused after; the models stay in the catalogue and in other sets.
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
