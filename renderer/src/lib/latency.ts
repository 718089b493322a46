import { timeBuckets } from './time-buckets.js';
import type { HistoryEntry } from '../../../router/api-types.js';
import { isAgentRequest } from './request-source.js';

/**
 * When the agent got its first byte, after the request started: the time its attempts took up to the one
 * that served. A stream's attempt is timed to its first useful chunk (when the answer was committed), a
 * JSON answer's to its whole body, which is sent at once. Null when nothing was served.
 */
export function firstByteMs(entry: Pick<HistoryEntry, 'outcome' | 'attempts'>): number | null {
  if (entry.outcome !== 'served' || entry.attempts.length === 0) return null;
  return entry.attempts.reduce((sum, attempt) => sum + attempt.latencyMs, 0);
}

/** The nearest-rank percentile (`p` in 0..100) of `values`; null without values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? null;
}

export interface FirstByteSummary {
  p50: number | null;
  p95: number | null;
  /** Served agent requests in the window. */
  count: number;
}

/** Time to first byte p50 and p95 of the agents' served requests started in the last `spanMs`. */
export function firstByteSummary(
  entries: readonly HistoryEntry[],
  now: number,
  spanMs = 3_600_000,
): FirstByteSummary {
  const values: number[] = [];
  for (const entry of entries) {
    if (entry.at < now - spanMs || entry.at > now || !isAgentRequest(entry)) continue;
    const ms = firstByteMs(entry);
    if (ms !== null) values.push(ms);
  }
  return { p50: percentile(values, 50), p95: percentile(values, 95), count: values.length };
}

/** Per-bucket p50 and p95 of the time to first byte, aligned like the outcome series. */
export interface FirstByteSeries {
  t: number[];
  p50: (number | null)[];
  p95: (number | null)[];
}

/** Buckets the agents' time to first byte over the last `spanMs` into `bucketMs` slices (edges on the clock). */
export function bucketFirstByte(
  entries: readonly HistoryEntry[],
  now: number,
  spanMs = 3_600_000,
  bucketMs = 120_000,
): FirstByteSeries {
  const buckets = timeBuckets(now, spanMs, bucketMs);
  const values: number[][] = Array.from({ length: buckets.count }, () => []);
  for (const entry of entries) {
    const i = buckets.indexOf(entry.at);
    if (i === null || !isAgentRequest(entry)) continue;
    const ms = firstByteMs(entry);
    if (ms !== null) values[i]?.push(ms);
  }
  return {
    t: buckets.t,
    p50: values.map((v) => percentile(v, 50)),
    p95: values.map((v) => percentile(v, 95)),
  };
}
