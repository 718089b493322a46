/**
 * The time slices the dashboard's charts count into: the last `spanMs` before `now` in `bucketMs` slices,
 * their edges on the clock so bars do not shift on every re-render.
 */
export interface TimeBuckets {
  count: number;
  /** Each slice's start in seconds (uPlot's time axis). */
  t: number[];
  /** The slice `at` falls in, or null outside the span. */
  indexOf(at: number): number | null;
}

/** The slices of the last `spanMs` before `now`, the newest holding `now`. */
export function timeBuckets(now: number, spanMs: number, bucketMs: number): TimeBuckets {
  const count = Math.ceil(spanMs / bucketMs);
  const end = Math.floor(now / bucketMs) * bucketMs + bucketMs;
  const start = end - count * bucketMs;
  return {
    count,
    t: Array.from({ length: count }, (_, i) => (start + i * bucketMs) / 1000),
    indexOf: (at) => (at < start || at >= end ? null : Math.floor((at - start) / bucketMs)),
  };
}
