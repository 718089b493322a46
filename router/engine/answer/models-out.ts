/**
 * The models that cannot take a request now, and the one rule that says whether a wait for a rate limit is
 * what would help: the request's ending answers 429 by it, and the health verdict says 429 by it. Pure.
 */

/**
 * A model that cannot take a request now: why (its skip reason, the kind of failure that paused it, or its
 * standing), whether only a rate limit holds it (a 429's pause, a free-tier budget: a wait for it helps),
 * when it is back by itself (null: not by itself, or never for this request), and whether it is out for
 * good: never back by itself for this request (too small for it, without tools or images it needs, its
 * provider switched off, no key or every key refused, a model nobody serves), so nobody waits for it.
 */
export interface ModelOut {
  reason: string;
  rateLimited: boolean;
  backAt: number | null;
  forGood: boolean;
}

/** A model out for good, for `reason`: never rate-limited, never back by itself. */
export function outForGood(reason: string): ModelOut {
  return { reason, rateLimited: false, backAt: null, forGood: true };
}

/** The soonest moment one of `outs` is back, or null. */
export function soonestBackAt(outs: readonly ModelOut[]): number | null {
  let soonest: number | null = null;
  for (const { backAt } of outs)
    if (backAt !== null && (soonest === null || backAt < soonest)) soonest = backAt;
  return soonest;
}

/**
 * Whether rate limits are what hold these models back, so that a 429 tells the truth: at least one is held
 * by a rate limit alone, and every other is too or is out for good (waiting for it would not help, nor is
 * it waited for). Anything that passes by itself beside them (an OPEN breaker, a 402's or a location's
 * pause, a trial under way) is not a rate limit, and a set out for good entirely is no rate limit either.
 */
export function rateLimitsHold(outs: readonly ModelOut[]): boolean {
  return outs.some((out) => out.rateLimited) && outs.every((out) => out.rateLimited || out.forGood);
}
