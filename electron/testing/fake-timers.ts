/** A hand-driven clock and timer queue for tests. Test-only. */
import type { Timers } from '../timers.js';

export interface FakeTime {
  clock: () => number;
  timers: Timers;
  /** Moves time forward, firing due timers in order. */
  advance(ms: number): Promise<void>;
  pending(): number;
}

export function fakeTime(start = 1_000_000): FakeTime {
  let now = start;
  let nextId = 1;
  const queue = new Map<number, { at: number; callback: () => void }>();
  return {
    clock: () => now,
    timers: {
      setTimeout(callback, ms) {
        const id = nextId++;
        queue.set(id, { at: now + Math.max(0, ms), callback });
        return id;
      },
      clearTimeout(handle) {
        queue.delete(handle as number);
      },
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        // Let promise continuations run first: they may schedule timers that are due in this window.
        await new Promise((resolve) => setImmediate(resolve));
        const due = [...queue.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        queue.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
    pending: () => queue.size,
  };
}
