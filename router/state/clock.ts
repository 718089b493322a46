/** Wall-clock milliseconds; injected everywhere time decides something, so tests can move it. */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = () => Date.now();
