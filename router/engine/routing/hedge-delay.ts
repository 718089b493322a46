import type { FailoverSettings } from '../../config/schema.js';
import type { LatencyFigures } from '../../state/model-stats.js';

/** The shortest `auto` hedge delay: below it a hedge would double the upstream calls of ordinary answers. */
export const AUTO_HEDGE_MIN_MS = 2000;
/** `auto` waits this many times the model's p95 time to first byte before it hedges. */
export const AUTO_HEDGE_FACTOR = 3;

/**
 * How long an attempt on a model with `figures` may go without useful content before a hedge starts, or
 * null for no hedge: hedging is off, `auto` has no figure for the model yet, or the delay would not come
 * before the request timeout (which fails over by itself then). Pure.
 */
export function hedgeDelayMs(
  failover: Pick<FailoverSettings, 'hedgeAfterMs' | 'requestTimeoutMs'>,
  figures: Pick<LatencyFigures, 'ttfbP95Ms'>,
): number | null {
  const { hedgeAfterMs, requestTimeoutMs } = failover;
  if (hedgeAfterMs === null) return null;
  let delay = hedgeAfterMs;
  if (delay === 'auto') {
    if (figures.ttfbP95Ms === null) return null;
    delay = Math.max(AUTO_HEDGE_MIN_MS, AUTO_HEDGE_FACTOR * figures.ttfbP95Ms);
  }
  return delay < requestTimeoutMs ? delay : null;
}
