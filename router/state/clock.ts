/** Wall-clock milliseconds; injected everywhere time decides something, so tests can move it. */
export type Clock = () => number;

declare const timerBrand: unique symbol;
/** A timer set through {@link Time}: good only for clearing it. */
export interface TimerHandle {
  readonly [timerBrand]: true;
}

/**
 * The time the router and the desktop app run on: what the clock says, and timers on that clock. Every
 * timer (attempt deadlines and the hedge delay, probes, discovery, the config watch's settle, state flushes,
 * the log's flush) is set through it, so a test moves time by hand and nothing waits on the wall clock.
 * Its timers never keep the process alive: the server and the sockets do that.
 */
export interface Time {
  /** Milliseconds since the epoch; a bare function, so it can be handed on where only a `Clock` is needed. */
  readonly now: Clock;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  /** Clearing a timer that fired, was cleared or is null does nothing. */
  clearTimeout(handle: TimerHandle | null): void;
  setInterval(callback: () => void, ms: number): TimerHandle;
  clearInterval(handle: TimerHandle | null): void;
}

/** The real clock. */
export const systemClock: Clock = () => Date.now();

/** Node's timers as handles: the handle is the `Timeout` itself, unref'd. */
const asHandle = (timer: NodeJS.Timeout): TimerHandle => timer.unref() as unknown as TimerHandle;
const asTimeout = (handle: TimerHandle | null): NodeJS.Timeout | undefined =>
  (handle ?? undefined) as unknown as NodeJS.Timeout | undefined;

/** The real time: `Date.now` and Node's timers, unref'd. */
export const systemTime: Time = {
  now: systemClock,
  setTimeout: (callback, ms) => asHandle(setTimeout(callback, ms)),
  clearTimeout: (handle) => clearTimeout(asTimeout(handle)),
  setInterval: (callback, ms) => asHandle(setInterval(callback, ms)),
  clearInterval: (handle) => clearInterval(asTimeout(handle)),
};
