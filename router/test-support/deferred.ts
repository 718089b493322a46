/** A promise with its resolve function exposed: a gate a test opens when it is ready. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

/** Creates a {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * How long a test waits for something that takes milliseconds before it calls it stuck. Not a timing
 * assertion: what the tests time runs on their own clock, and a loaded machine can stretch real work from
 * milliseconds to many seconds, so the guard is far above any such stretch and only ends a run that hangs.
 */
export const HANG_GUARD_MS = 300_000;

/**
 * Resolves as `promise` does, or rejects after `ms` (by default {@link HANG_GUARD_MS}) naming what was
 * awaited, so a broken expectation fails the test instead of hanging the run. The timer never keeps the
 * process alive.
 */
export function within<T>(
  promise: Promise<T>,
  what: string | (() => string),
  ms: number = HANG_GUARD_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`)),
      ms,
    );
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Lets the event loop go round `rounds` times. Bytes written to a loopback socket are in the other end's
 * receive queue as the write returns, so a few rounds let the router (in this process) read what a fake
 * upstream or client just wrote: a count of turns, not a time, and the same on a loaded machine.
 */
export async function ioTurns(rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise((resolve) => setImmediate(resolve));
}
