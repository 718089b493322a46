import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { errorText } from '../../components/QueryStatus.js';
import { countOf } from '../../lib/format.js';

/** Asks before "Save as new set" replaces a set that exists, saying what it replaces and that agents switch. */
function ConfirmReplace({
  name,
  state,
  onReplace,
  onCancel,
  busy,
}: {
  name: string;
  state: StateResponse;
  onReplace(): void;
  onCancel(): void;
  busy: boolean;
}) {
  const count = (set: string) => state.sets[set]?.length ?? 0;
  return (
    <div className="confirm-replace" role="alertdialog" aria-label={`Replace set ${name}`}>
      <p>
        A set named “{name}” exists ({countOf(count(name), 'model')}). Replace it with the current order of “
        {state.activeSet}” ({countOf(count(state.activeSet), 'model')})? Agents’ <code>fcm</code> requests
        then go to “{name}”.
      </p>
      <button type="button" className="btn btn-small btn-primary" onClick={onReplace} disabled={busy}>
        Replace “{name}” and switch to it
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * Saves the active set's current order under a name and switches agents to it; a name that is taken is
 * replaced only after the user confirms.
 */
export function SaveAsSet({ state }: { state: StateResponse }) {
  const client = useQueryClient();
  const hintId = useId();
  const [newName, setNewName] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: async (name: string) => {
      await api.saveSet(name, state.sets[state.activeSet] ?? []);
      await api.activateSet(name);
    },
    onSuccess: () => {
      setNewName('');
      setConfirming(null);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const name = newName.trim();
    if (!name) return;
    if (Object.hasOwn(state.sets, name) && name !== state.activeSet) setConfirming(name);
    else create.mutate(name);
  };
  return (
    <>
      <form className="inline-form" onSubmit={submit}>
        <input
          aria-label="New set name"
          placeholder="new set name"
          value={newName}
          onChange={(e) => {
            setNewName(e.target.value);
            setConfirming(null);
          }}
          aria-describedby={hintId}
          pattern="[A-Za-z0-9._\-]+"
          title="letters, digits, . _ -"
        />
        <button type="submit" className="btn btn-small" disabled={create.isPending || !newName.trim()}>
          Save as new set
        </button>
        <span id={hintId} className="muted small">
          saves the current order under this name and switches agents to it
        </span>
      </form>
      {confirming !== null && (
        <ConfirmReplace
          name={confirming}
          state={state}
          onReplace={() => create.mutate(confirming)}
          onCancel={() => setConfirming(null)}
          busy={create.isPending}
        />
      )}
      {create.error && <span className="field-error">{errorText(create.error)}</span>}
    </>
  );
}
