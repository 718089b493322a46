/**
 * What a model's breaker makes it to the next request at a given time, read from the state snapshot: the
 * one reading of a breaker that the health verdict and the desktop app's tray both take. Pure.
 */
import type { ModelStateView } from '../../api-types.js';

/**
 * A breaker's standing: `closed` keeps its place in the order, `degraded` goes behind every CLOSED model,
 * `trial` is due its one trial request at its own place, `open` is skipped until its cooldown ends.
 */
export type BreakerStanding = 'closed' | 'degraded' | 'trial' | 'open';

/** The breaker's part of a model's state snapshot. */
export type BreakerView = Pick<ModelStateView, 'state' | 'openUntil' | 'trialDueAt'>;

/**
 * The standing of `breaker` at `now`. A cooldown that has run out makes the next request the OPEN model's
 * trial (the router turns it HALF_OPEN then), and a DEGRADED model with no new failure for a cooldown is
 * due its trial as well.
 */
export function breakerStanding(breaker: BreakerView, now: number): BreakerStanding {
  switch (breaker.state) {
    case 'CLOSED':
      return 'closed';
    case 'DEGRADED':
      return breaker.trialDueAt !== null && breaker.trialDueAt <= now ? 'trial' : 'degraded';
    case 'HALF_OPEN':
      return 'trial';
    case 'OPEN':
      return breaker.openUntil !== null && breaker.openUntil <= now ? 'trial' : 'open';
  }
}

/**
 * When the standing of `breaker` next changes by the passage of time alone, after `now`: an OPEN model's
 * cooldown ends, a DEGRADED model's trial comes due. Null when nothing is waiting.
 */
export function breakerChangesAt(breaker: BreakerView, now: number): number | null {
  const at =
    breaker.state === 'OPEN' ? breaker.openUntil : breaker.state === 'DEGRADED' ? breaker.trialDueAt : null;
  return at !== null && at > now ? at : null;
}
