import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { errorText } from '../../components/QueryStatus.js';
import { SaveAsSet } from './SaveAsSet.js';

/** Switches the active set (the one agents' `fcm` requests use), or saves the current one under a name. */
export function SetBar({ state }: { state: StateResponse }) {
  const client = useQueryClient();
  const selectId = useId();
  // The chosen set shows at once, and until the router's state names it (or the change failed): a reload
  // older than the change never shows the set before it for a moment.
  const [wanted, setWanted] = useState<string | null>(null);
  const activate = useMutation({
    mutationFn: (set: string) => api.activateSet(set),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  // Set during render, as React advises for state that follows a prop: no effect, no extra paint.
  if (wanted !== null && wanted === state.activeSet && !activate.isPending) setWanted(null);
  const names = Object.keys(state.sets);
  return (
    <div className="set-bar">
      <label htmlFor={selectId}>Active set</label>
      <select
        id={selectId}
        value={wanted ?? state.activeSet}
        onChange={(e) => {
          setWanted(e.target.value);
          activate.mutate(e.target.value, { onError: () => setWanted(null) });
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
      <SaveAsSet state={state} />
      {activate.error && <span className="field-error">{errorText(activate.error)}</span>}
    </div>
  );
}
