import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { errorText } from '../../components/QueryStatus.js';

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
        A set named “{name}” exists ({count(name)} models). Replace it with the current order of “
        {state.activeSet}” ({count(state.activeSet)} models)? Agents’ <code>fcm</code> requests then go to “
        {name}”.
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
 * Switches the active set, or saves the current one under a name and switches agents to it; a name that
 * is taken is replaced only after the user confirms.
 */
export function SetBar({ state }: { state: StateResponse }) {
  const client = useQueryClient();
  const selectId = useId();
  const hintId = useId();
  const [newName, setNewName] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  // The chosen set shows at once, not only after the router's change has been reloaded.
  const [wanted, setWanted] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.state });
  const activate = useMutation({ mutationFn: (set: string) => api.activateSet(set), onSettled: refresh });
  const create = useMutation({
    mutationFn: async (name: string) => {
      await api.saveSet(name, state.sets[state.activeSet] ?? []);
      await api.activateSet(name);
    },
    onSuccess: () => {
      setNewName('');
      setConfirming(null);
    },
    onSettled: refresh,
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const name = newName.trim();
    if (!name) return;
    if (Object.hasOwn(state.sets, name) && name !== state.activeSet) setConfirming(name);
    else create.mutate(name);
  };
  const names = Object.keys(state.sets);
  const error = activate.error ?? create.error;

  return (
    <div className="set-bar">
      <label htmlFor={selectId}>Active set</label>
      <select
        id={selectId}
        value={wanted ?? state.activeSet}
        onChange={(e) => {
          setWanted(e.target.value);
          activate.mutate(e.target.value, { onSettled: () => setWanted(null) });
        }}
        disabled={activate.isPending}
      >
        {names.map((name) => (
          <option key={name} value={name}>
            {name} ({state.sets[name]?.length ?? 0})
          </option>
        ))}
        {!names.includes(state.activeSet) && <option value={state.activeSet}>{state.activeSet}</option>}
      </select>
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
      {error && <span className="field-error">{errorText(error)}</span>}
    </div>
  );
}
