import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { errorText } from '../../components/QueryStatus.js';

/** Switches the active set, or saves the current one under a new name. */
export function SetBar({ state }: { state: StateResponse }) {
  const client = useQueryClient();
  const selectId = useId();
  const [newName, setNewName] = useState('');
  // The chosen set shows at once, not only after the router's change has been reloaded.
  const [wanted, setWanted] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.state });
  const activate = useMutation({ mutationFn: (set: string) => api.activateSet(set), onSettled: refresh });
  const create = useMutation({
    mutationFn: async (name: string) => {
      await api.saveSet(name, state.sets[state.activeSet] ?? []);
      await api.activateSet(name);
    },
    onSuccess: () => setNewName(''),
    onSettled: refresh,
  });
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (newName.trim()) create.mutate(newName.trim());
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
          onChange={(e) => setNewName(e.target.value)}
          pattern="[A-Za-z0-9._\-]+"
          title="letters, digits, . _ -"
        />
        <button type="submit" className="btn btn-small" disabled={create.isPending || !newName.trim()}>
          Save as new set
        </button>
      </form>
      {error && <span className="field-error">{errorText(error)}</span>}
    </div>
  );
}
