import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { StateResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';

/** The active set with one model moved by `delta` places (clamped to the ends). */
export function moveInList(list: readonly string[], key: string, delta: number): string[] {
  const from = list.indexOf(key);
  if (from < 0) return list.slice();
  return moveTo(list, key, from + delta);
}

/** The list with `key` moved to index `to` (clamped). */
export function moveTo(list: readonly string[], key: string, to: number): string[] {
  const from = list.indexOf(key);
  if (from < 0) return list.slice();
  const target = Math.min(list.length - 1, Math.max(0, to));
  const next = list.slice();
  next.splice(from, 1);
  next.splice(target, 0, key);
  return next;
}

/** A model taken out of the set, with where it was, so it can be put back. */
export interface Removed {
  key: string;
  index: number;
}

/** The list with `removed` back at its old place (or at the end, if the list got shorter). */
export function restore(list: readonly string[], removed: Removed): string[] {
  if (list.includes(removed.key)) return list.slice();
  const next = list.slice();
  next.splice(Math.min(removed.index, next.length), 0, removed.key);
  return next;
}

/**
 * Edits the active set's order and membership; each edit replaces the set on the router. The edited list
 * shows at once (optimistically) until the router's answer has been reloaded.
 */
export function useSetEditor(state: StateResponse | undefined) {
  const client = useQueryClient();
  const name = state?.activeSet ?? 'default';
  const saved = state?.sets[name] ?? [];
  const [removed, setRemoved] = useState<Removed | null>(null);
  const dismissRemoved = useCallback(() => setRemoved(null), []);
  const save = useMutation({
    mutationFn: (models: string[]) => api.saveSet(name, models),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  // While a save is on its way, the list as sent is the one to show and to edit further.
  const list = save.isPending && save.variables ? save.variables : saved;
  return {
    list,
    pending: save.isPending,
    error: save.error,
    /** The last removal, until it is undone or another edit is made. */
    removed,
    move: (key: string, delta: number) => {
      setRemoved(null);
      save.mutate(moveInList(list, key, delta));
    },
    moveTo: (key: string, index: number) => {
      setRemoved(null);
      if (list.indexOf(key) !== index) save.mutate(moveTo(list, key, index));
    },
    remove: (key: string) => {
      const index = list.indexOf(key);
      if (index < 0) return;
      setRemoved({ key, index });
      save.mutate(list.filter((k) => k !== key));
    },
    undoRemove: () => {
      if (!removed) return;
      setRemoved(null);
      save.mutate(restore(list, removed));
    },
    dismissRemoved,
    add: (key: string) => {
      setRemoved(null);
      if (!list.includes(key)) save.mutate([...list, key]);
    },
  };
}
