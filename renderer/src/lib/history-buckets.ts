import { timeBuckets } from './time-buckets.js';
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
  /** Requests of outcome `rejected` (answered without asking a model: routing paused, an unknown name). */
  refused: number[];
  /** Served after failover over all served, in percent; null for a bucket with nothing served. */
  failoverRate: (number | null)[];
}

/**
 * Buckets the agents' history of the last `spanMs` before `now` into `bucketMs` slices. Rejected requests
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
  const buckets = timeBuckets(now, spanMs, bucketMs);
  const zeros = () => new Array<number>(buckets.count).fill(0);
  const series: OutcomeSeries = {
    t: buckets.t,
    firstTry: zeros(),
    afterFailover: zeros(),
    failed: zeros(),
    refused: zeros(),
    failoverRate: [],
  };
  for (const entry of entries) {
    const i = buckets.indexOf(entry.at);
    if (i === null || !isAgentRequest(entry)) continue;
    if (entry.outcome === 'served') {
      const bucket = entry.attempts.length > 1 ? series.afterFailover : series.firstTry;
      bucket[i] = (bucket[i] ?? 0) + 1;
    } else if (isFailedOutcome(entry.outcome)) {
      series.failed[i] = (series.failed[i] ?? 0) + 1;
    } else if (entry.outcome === 'rejected') {
      series.refused[i] = (series.refused[i] ?? 0) + 1;
    }
  }
  for (let i = 0; i < buckets.count; i++) {
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
