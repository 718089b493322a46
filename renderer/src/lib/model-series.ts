import { timeBuckets } from './time-buckets.js';
import type { FailureKind, HistoryEntry, RequestSource } from '../../../router/api-types.js';
import { percentile } from './latency.js';
import { isAgentRequest, sourceOf } from './request-source.js';

/** One model's success share and median latency per time bucket, aligned for uPlot. */
export interface ModelSeries {
  /** Bucket start times in epoch seconds. */
  t: number[];
  /** Successful attempts over all attempts, in percent; null for a bucket without attempts. */
  success: (number | null)[];
  /** Median latency of the successful attempts, in ms. */
  latency: (number | null)[];
  attempts: number;
}

/**
 * Buckets the agents' attempts at one model over the last `spanMs` (tests are left out, as in every
 * chart). An attempt's time is its request's start plus the attempts before it.
 * @default spanMs one hour, bucketMs five minutes
 */
export function modelSeries(
  entries: readonly HistoryEntry[],
  key: string,
  now: number,
  spanMs = 3_600_000,
  bucketMs = 300_000,
): ModelSeries {
  const buckets = timeBuckets(now, spanMs, bucketMs);
  const ok = new Array<number>(buckets.count).fill(0);
  const all = new Array<number>(buckets.count).fill(0);
  const latencies: number[][] = Array.from({ length: buckets.count }, () => []);
  let attempts = 0;
  for (const entry of entries) {
    if (!isAgentRequest(entry)) continue;
    for (const { at, attempt } of attemptsAt(entry)) {
      const i = buckets.indexOf(at);
      if (attempt.model !== key || i === null) continue;
      attempts += 1;
      all[i] = (all[i] ?? 0) + 1;
      if (attempt.kind === null) {
        ok[i] = (ok[i] ?? 0) + 1;
        latencies[i]?.push(attempt.latencyMs);
      }
    }
  }
  return {
    t: buckets.t,
    success: all.map((n, i) => (n === 0 ? null : (100 * (ok[i] ?? 0)) / n)),
    latency: latencies.map((values) => percentile(values, 50)),
    attempts,
  };
}

/** The attempts of a request with the time each started (the request's start plus the ones before). */
function attemptsAt(entry: HistoryEntry) {
  let at = entry.at;
  return entry.attempts.map((attempt) => {
    const started = at;
    at += attempt.latencyMs;
    return { at: started, attempt };
  });
}

/** One thing that happened to a model: an attempt, a trial among them. */
export interface ModelEvent {
  at: number;
  ok: boolean;
  kind: FailureKind | null;
  /** A trial: the breaker was OPEN or HALF_OPEN (or the router tried it as one). */
  trial: boolean;
  source: RequestSource;
  latencyMs: number;
}

/** Every attempt at `key` since `since`, oldest first, tests included: a test can be the model's trial. */
export function modelEvents(entries: readonly HistoryEntry[], key: string, since: number): ModelEvent[] {
  const events: ModelEvent[] = [];
  for (const entry of entries) {
    for (const { at, attempt } of attemptsAt(entry)) {
      if (attempt.model !== key || at < since) continue;
      events.push({
        at,
        ok: attempt.kind === null,
        kind: attempt.kind,
        trial:
          attempt.role === 'trial' ||
          attempt.role === 'panic' ||
          attempt.breakerBefore === 'OPEN' ||
          attempt.breakerBefore === 'HALF_OPEN',
        source: sourceOf(entry),
        latencyMs: attempt.latencyMs,
      });
    }
  }
  return events.sort((a, b) => a.at - b.at);
}
