import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type SetOrder } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';

/** The router's answers to set management: order, rename and delete one set; state and config reloaded. */
export function useSetActions(name: string) {
  const client = useQueryClient();
  const refresh = async (): Promise<void> => {
    await Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.state }),
      client.invalidateQueries({ queryKey: queryKeys.config }),
    ]);
  };
  const order = useMutation({ mutationFn: (next: SetOrder) => api.setOrder(name, next), onSettled: refresh });
  const rename = useMutation({ mutationFn: (to: string) => api.renameSet(name, to), onSettled: refresh });
  const remove = useMutation({ mutationFn: () => api.deleteSet(name), onSettled: refresh });
  return { order, rename, remove, error: order.error ?? rename.error ?? remove.error };
}
