import type { Clock } from '../router/index.js';
import type { Timers } from './timers.js';

export interface Coalescer {
  /** Something changed: run soon, but not more often than allowed. */
  poke(): void;
  /** Cancels a pending run. */
  dispose(): void;
}

/**
 * Coalesces bursts of router events into at most `maxPerSecond` runs of `run`: the first poke after a
 * quiet spell runs at once, pokes inside the interval fold into one trailing run. A slow async `run` is
 * never overlapped; pokes during it lead to one more run after it.
 */
export function createCoalescer(
  run: () => void | Promise<void>,
  options: { maxPerSecond: number; clock: Clock; timers: Timers },
): Coalescer {
  const interval = 1000 / options.maxPerSecond;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  let running = false;
  let dirty = false;
  let disposed = false;

  const fire = (): void => {
    timer = null;
    dirty = false;
    running = true;
    lastStart = options.clock();
    let result: void | Promise<void>;
    try {
      result = run();
    } catch {
      result = undefined;
    }
    void Promise.resolve(result)
      .catch(() => undefined)
      .then(() => {
        running = false;
        if (dirty) schedule();
      });
  };

  const schedule = (): void => {
    if (disposed || timer !== null) return;
    if (running) {
      dirty = true;
      return;
    }
    const wait = lastStart + interval - options.clock();
    if (wait <= 0) fire();
    else timer = options.timers.setTimeout(fire, wait);
  };

  return {
    poke: schedule,
    dispose() {
      disposed = true;
      if (timer !== null) options.timers.clearTimeout(timer);
      timer = null;
    },
  };
}
