import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';

/** The active set with one model moved by `delta` places (clamped to the ends). */
export function moveInList(list: readonly string[], key: string, delta: number): string[] {
  const from = list.indexOf(key);
  if (from < 0) return list.slice();
  const to = Math.min(list.length - 1, Math.max(0, from + delta));
  const next = list.slice();
  next.splice(from, 1);
  next.splice(to, 0, key);
  return next;
}

/** Edits the active set's order and membership; each edit replaces the set on the router. */
export function useSetEditor(state: StateResponse | undefined) {
  const client = useQueryClient();
  const name = state?.activeSet ?? 'default';
  const list = state?.sets[name] ?? [];
  const save = useMutation({
    mutationFn: (models: string[]) => api.saveSet(name, models),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  return {
    list,
    pending: save.isPending,
    error: save.error,
    move: (key: string, delta: number) => save.mutate(moveInList(list, key, delta)),
    remove: (key: string) => save.mutate(list.filter((k) => k !== key)),
    add: (key: string) => {
      if (!list.includes(key)) save.mutate([...list, key]);
    },
  };
}
