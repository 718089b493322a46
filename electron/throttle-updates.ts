import type { Time, TimerHandle } from '../router/index.js';

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
  options: { maxPerSecond: number; time: Time },
): Coalescer {
  const interval = 1000 / options.maxPerSecond;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: TimerHandle | null = null;
  let running = false;
  let dirty = false;
  let disposed = false;

  const fire = (): void => {
    timer = null;
    dirty = false;
    running = true;
    lastStart = options.time.now();
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
    const wait = lastStart + interval - options.time.now();
    if (wait <= 0) fire();
    else timer = options.time.setTimeout(fire, wait);
  };

  return {
    poke: schedule,
    dispose() {
      disposed = true;
      options.time.clearTimeout(timer);
      timer = null;
    },
  };
}
