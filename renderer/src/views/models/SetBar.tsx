import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { errorText } from '../../components/QueryStatus.js';
import { useAskedValue } from '../../lib/use-asked-value.js';
import { SaveAsSet } from './SaveAsSet.js';

/** Switches the active set (the one agents' `fcm` requests use), or saves the current one under a name. */
export function SetBar({ state }: { state: StateResponse }) {
  const client = useQueryClient();
  const selectId = useId();
  const activate = useMutation({
    mutationFn: (set: string) => api.activateSet(set),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  // The chosen set shows at once, and until the router's state names it.
  const chosen = useAskedValue(state.activeSet, activate.isPending);
  const names = Object.keys(state.sets);
  return (
    <div className="set-bar">
      <label htmlFor={selectId}>Active set</label>
      <select
        id={selectId}
        value={chosen.shown}
        onChange={(e) => {
          chosen.ask(e.target.value);
          activate.mutate(e.target.value, { onError: chosen.forget });
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
