import type { HistoryEntry } from '../../../router/api-types.js';
import { isFailedOutcome } from './labels.js';
import { isAgentRequest } from './request-source.js';

/** Requests per time bucket by outcome, plus the failover rate among served ones; aligned for uPlot. */
export interface OutcomeSeries {
  /** Bucket start times in epoch seconds (uPlot's x unit). */
  t: number[];
  firstTry: number[];
  afterFailover: number[];
  failed: number[];
  /** Refused without asking a model: routing paused, an unknown model name. */
  refused: number[];
  /** Served after failover over all served, in percent; null for a bucket with nothing served. */
  failoverRate: (number | null)[];
}

/**
 * Buckets the agents' history of the last `spanMs` before `now` into `bucketMs` slices. Refused requests
 * (paused, an unknown model name) are a series of their own; client aborts are left out (they say nothing
 * about the providers), and so are dashboard tests.
 * @default spanMs one hour, bucketMs two minutes
 */
export function bucketOutcomes(
  entries: readonly HistoryEntry[],
  now: number,
  spanMs = 3_600_000,
  bucketMs = 120_000,
): OutcomeSeries {
  const count = Math.ceil(spanMs / bucketMs);
  // Align bucket edges to the clock so bars do not shift on every re-render.
  const end = Math.floor(now / bucketMs) * bucketMs + bucketMs;
  const start = end - count * bucketMs;
  const series: OutcomeSeries = {
    t: [],
    firstTry: [],
    afterFailover: [],
    failed: [],
    refused: [],
    failoverRate: [],
  };
  for (let i = 0; i < count; i++) {
    series.t.push((start + i * bucketMs) / 1000);
    series.firstTry.push(0);
    series.afterFailover.push(0);
    series.failed.push(0);
    series.refused.push(0);
  }
  for (const entry of entries) {
    if (entry.at < start || entry.at >= end || !isAgentRequest(entry)) continue;
    const i = Math.floor((entry.at - start) / bucketMs);
    if (entry.outcome === 'served') {
      const bucket = entry.attempts.length > 1 ? series.afterFailover : series.firstTry;
      bucket[i] = (bucket[i] ?? 0) + 1;
    } else if (isFailedOutcome(entry.outcome)) {
      series.failed[i] = (series.failed[i] ?? 0) + 1;
    } else if (entry.outcome === 'rejected') {
      series.refused[i] = (series.refused[i] ?? 0) + 1;
    }
  }
  for (let i = 0; i < count; i++) {
    const first = series.firstTry[i] ?? 0;
    const after = series.afterFailover[i] ?? 0;
    series.failoverRate.push(first + after === 0 ? null : (100 * after) / (first + after));
  }
  return series;
}

/** Totals of a series, for the chart's legend. */
export function seriesTotals(series: OutcomeSeries): {
  firstTry: number;
  afterFailover: number;
  failed: number;
  refused: number;
} {
  const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
  return {
    firstTry: sum(series.firstTry),
    afterFailover: sum(series.afterFailover),
    failed: sum(series.failed),
    refused: sum(series.refused),
  };
}
