import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../api/queries.js';

/** Timers longer than this are not worth keeping: any event refreshes the state long before. */
const MAX_WAIT_MS = 3_600_000;

/**
 * Reloads the router's state just after `at` (a cooldown or quota pause ending): the verdict and routing
 * order change then by the passage of time alone, with no event to announce it.
 */
export function useRefreshAt(at: number | null): void {
  const client = useQueryClient();
  useEffect(() => {
    if (at === null) return undefined;
    const wait = at - Date.now() + 250;
    if (wait > MAX_WAIT_MS) return undefined;
    const timer = setTimeout(
      () => void client.invalidateQueries({ queryKey: queryKeys.state }),
      Math.max(0, wait),
    );
    return () => clearTimeout(timer);
  }, [at, client]);
}
