/**
 * A counter's standing remembered between its counts. Ranking asks where every counted model stands on
 * every request, and working it out walks the sliding minute (up to 61 slices) twice; but between two
 * counts only time changes a standing, and only at moments known when it is worked out:
 * - `at` holds until its `until`: each reached limit stays reached until its own moment (its slices slide
 *   out, the day ends, the hold expires), and `until` is the latest of them;
 * - `near` holds until the minute's oldest slice leaves or the day ends (nothing else lowers a count);
 * - `ok` holds until the next count: time only lowers counts.
 */
import type { BudgetLimits } from '../catalogue/free-tier-limits.js';
import { MINUTE_MS, type BudgetCounts, type BudgetStanding } from './budget-standing.js';

/** A standing, what it was worked out for, and from when to when it holds. */
export interface StandingMemo {
  readonly standing: BudgetStanding;
  readonly zone: string;
  /** A copy of the limits' values: a caller's object may be another with the same values. */
  readonly rpm: number | null;
  readonly rpd: number | null;
  readonly tpm: number | null;
  readonly tpd: number | null;
  /** When it was worked out: a clock set back before it may fall in another day. */
  readonly from: number;
  /** The first moment time alone may change it. */
  readonly until: number;
}

/**
 * Remembers `standing`, worked out at `now` from `counts` (rolled to `now`, slices oldest first) against
 * `limits` in the day of `zone`.
 */
export function memoOf(
  standing: BudgetStanding,
  counts: BudgetCounts,
  now: number,
  zone: string,
  limits: BudgetLimits,
): StandingMemo {
  const { rpm, rpd, tpm, tpd } = limits;
  return { standing, zone, rpm, rpd, tpm, tpd, from: now, until: holdsUntil(standing, counts) };
}

/** Whether `memo` still says where its counter stands at `now`, for `zone` and `limits`. */
export function memoHolds(memo: StandingMemo, now: number, zone: string, limits: BudgetLimits): boolean {
  return (
    now < memo.until &&
    now >= memo.from &&
    memo.zone === zone &&
    memo.rpm === limits.rpm &&
    memo.rpd === limits.rpd &&
    memo.tpm === limits.tpm &&
    memo.tpd === limits.tpd
  );
}

/** The first moment time alone may change `standing` (see the module's comment). */
function holdsUntil(standing: BudgetStanding, counts: BudgetCounts): number {
  if (standing.type === 'at') return standing.until;
  if (standing.type === 'ok') return Infinity;
  const oldest = counts.minute[0];
  return oldest === undefined ? counts.dayEnd : Math.min(oldest.last + MINUTE_MS, counts.dayEnd);
}
