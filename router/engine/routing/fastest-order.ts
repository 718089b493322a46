import type { LatencyFigures } from '../../state/model-stats.js';
import type { RankedCandidate } from './ranking.js';

/** Times to first byte this close are a tie: the user's order decides between them. */
export const TIE_MS = 100;

/**
 * A `fastest` set's order: its healthy models (CLOSED and not near a budget: neither a trial nor
 * `lowered` in the priority ranking) by recent time to first useful byte (a tie within {@link TIE_MS} keeps
 * the user's order), those never measured after them in the user's order, then the rest of the priority
 * ranking (trials, DEGRADED models, models near a budget) as it was. When `explore` is set (a small share
 * of requests), the healthy model measured longest ago goes first, so every model's figure stays fresh.
 * `figures` reads a model's latency figures. Pure.
 */
export function fastestOrder(
  order: readonly RankedCandidate[],
  figures: (key: string) => LatencyFigures,
  explore: boolean,
): RankedCandidate[] {
  const measured: { candidate: RankedCandidate; bucket: number; index: number }[] = [];
  const unmeasured: RankedCandidate[] = [];
  const rest: RankedCandidate[] = [];
  order.forEach((candidate, index) => {
    if (candidate.lowered === true || candidate.role !== 'normal') {
      rest.push(candidate);
      return;
    }
    const { ttfbMs } = figures(candidate.key);
    if (ttfbMs === null) unmeasured.push(candidate);
    else measured.push({ candidate, bucket: Math.floor(ttfbMs / TIE_MS), index });
  });
  measured.sort((a, b) => a.bucket - b.bucket || a.index - b.index);
  const healthy = [...measured.map((entry) => entry.candidate), ...unmeasured];
  if (explore && healthy.length > 1) {
    const stalest = stalestIndex(healthy, figures);
    if (stalest > 0) healthy.unshift(...healthy.splice(stalest, 1));
  }
  return [...healthy, ...rest];
}

/** The candidate measured longest ago (never measured counts as oldest; the first such in the order). */
function stalestIndex(
  candidates: readonly RankedCandidate[],
  figures: (key: string) => LatencyFigures,
): number {
  let best = 0;
  let bestAt = Number.POSITIVE_INFINITY;
  candidates.forEach((candidate, index) => {
    const at = figures(candidate.key).lastAt ?? Number.NEGATIVE_INFINITY;
    if (at < bestAt) {
      best = index;
      bestAt = at;
    }
  });
  return best;
}
