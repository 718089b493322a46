/**
 * Collects names and runs `flush` with all of them once things go quiet for `waitMs`, or at the latest
 * `maxWaitMs` after the first one, so a burst of events costs one refetch, and steady traffic still
 * refreshes regularly.
 */
export function coalesce<T>(
  flush: (items: Set<T>) => void,
  waitMs: number,
  maxWaitMs: number,
): { add(item: T): void; cancel(): void } {
  let pending = new Set<T>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let firstAt = 0;
  const run = (): void => {
    timer = null;
    const items = pending;
    pending = new Set();
    flush(items);
  };
  return {
    add(item) {
      if (pending.size === 0) firstAt = Date.now();
      pending.add(item);
      if (timer) clearTimeout(timer);
      const delay = Math.max(0, Math.min(waitMs, firstAt + maxWaitMs - Date.now()));
      timer = setTimeout(run, delay);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = new Set();
    },
  };
}
