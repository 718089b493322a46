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

/**
 * The moment a chart of recent history ends at: the end of the minute of `now`, or of the newest entry when
 * one is later. The clock that moves the chart ticks every 30 s, so a request that arrives after a minute
 * has turned would otherwise fall outside the chart until the next tick.
 *
 * @example chartEnd(90_000, [{ at: 125_000 }]) // 179_999, the end of the minute holding the entry
 */
export function chartEnd(now: number, entries: readonly { at: number }[] = []): number {
  let latest = now;
  for (const entry of entries) if (entry.at > latest) latest = entry.at;
  return Math.floor(latest / 60_000) * 60_000 + 59_999;
}
