import type { BreakerStore } from '../../state/breaker-store.js';
import type { LatencyBook, LatencyFigures } from '../../state/model-stats.js';
import type { RankedCandidate } from './ranking.js';

/** Times to first byte this close are a tie: the user's order decides between them. */
export const TIE_MS = 100;

/** What `fastest` ordering needs to know about one ranked candidate. */
export interface SpeedFacts {
  /** CLOSED and taking the request in its own right (not a trial). */
  healthy: boolean;
  figures: LatencyFigures;
}

/** What `fastest` ordering reads of each model: whether its breaker is CLOSED, and its latency figures. */
export function speedFacts(breakers: BreakerStore, latency: LatencyBook): (key: string) => SpeedFacts {
  return (key) => ({ healthy: breakers.get(key).state === 'CLOSED', figures: latency.get(key) });
}

/**
 * A `fastest` set's order: its healthy models by recent time to first useful byte (a tie within
 * {@link TIE_MS} keeps the user's order), those never measured after them in the user's order, then the
 * rest of the priority ranking (trials, DEGRADED models) as it was. When `explore` is set (a small share of
 * requests), the healthy model measured longest ago goes first, so every model's figure stays fresh. Pure.
 */
export function fastestOrder(
  order: readonly RankedCandidate[],
  facts: (key: string) => SpeedFacts,
  explore: boolean,
): RankedCandidate[] {
  const measured: { candidate: RankedCandidate; bucket: number; index: number }[] = [];
  const unmeasured: RankedCandidate[] = [];
  const rest: RankedCandidate[] = [];
  order.forEach((candidate, index) => {
    const { healthy, figures } = facts(candidate.key);
    if (!healthy || candidate.role !== 'normal') rest.push(candidate);
    else if (figures.ttfbMs === null) unmeasured.push(candidate);
    else measured.push({ candidate, bucket: Math.floor(figures.ttfbMs / TIE_MS), index });
  });
  measured.sort((a, b) => a.bucket - b.bucket || a.index - b.index);
  const healthy = [...measured.map((entry) => entry.candidate), ...unmeasured];
  if (explore && healthy.length > 1) {
    const stalest = stalestIndex(healthy, facts);
    if (stalest > 0) healthy.unshift(...healthy.splice(stalest, 1));
  }
  return [...healthy, ...rest];
}

/** The candidate measured longest ago (never measured counts as oldest; the first such in the order). */
function stalestIndex(candidates: readonly RankedCandidate[], facts: (key: string) => SpeedFacts): number {
  let best = 0;
  let bestAt = Number.POSITIVE_INFINITY;
  candidates.forEach((candidate, index) => {
    const at = facts(candidate.key).figures.lastAt ?? Number.NEGATIVE_INFINITY;
    if (at < bestAt) {
      best = index;
      bestAt = at;
    }
  });
  return best;
}
