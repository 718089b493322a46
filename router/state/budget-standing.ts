/**
 * Where one counter stands against its free-tier limits, in fixed windows: the current UTC minute and the
 * current UTC day (the windows free tiers reset in). Pure.
 */
import type { BudgetLimits } from '../catalogue/free-tier-limits.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** From this share of any limit on, a model ranks behind the others. */
export const NEAR_SHARE = 0.8;

/** What was used in the current windows, and a hold a provider's headers asked for. */
export interface BudgetCounts {
  /** Start of the minute the minute counts belong to. */
  minute: number;
  minuteRequests: number;
  minuteTokens: number;
  /** Start of the UTC day the day counts belong to. */
  day: number;
  dayRequests: number;
  dayTokens: number;
  /** A provider said the budget is spent until then (`x-ratelimit-remaining-*: 0`). */
  heldUntil: number | null;
}

/** What is left of one budget by a provider's headers, and in how long it resets (null when not said). */
export interface RateLimitHint {
  remaining: number;
  resetMs: number | null;
}

/** A response's rate-limit headers: requests and tokens left. */
export interface RateLimitHints {
  requests: RateLimitHint | null;
  tokens: RateLimitHint | null;
}

export type BudgetStanding =
  | { type: 'ok' }
  /** Some limit is at least {@link NEAR_SHARE} used. */
  | { type: 'near' }
  /** A limit is reached: usable again at `until`. */
  | { type: 'at'; until: number };

/** Counts with the windows that are over emptied. */
export function rolled(counts: BudgetCounts | undefined, now: number): BudgetCounts {
  const minute = now - (now % MINUTE_MS);
  const day = now - (now % DAY_MS);
  const sameMinute = counts !== undefined && counts.minute === minute;
  const sameDay = counts !== undefined && counts.day === day;
  return {
    minute,
    minuteRequests: sameMinute ? counts.minuteRequests : 0,
    minuteTokens: sameMinute ? counts.minuteTokens : 0,
    day,
    dayRequests: sameDay ? counts.dayRequests : 0,
    dayTokens: sameDay ? counts.dayTokens : 0,
    heldUntil:
      counts?.heldUntil !== null && counts?.heldUntil !== undefined && counts.heldUntil > now
        ? counts.heldUntil
        : null,
  };
}

/** The share of the most used daily limit (requests or tokens), or null without a daily limit. */
export function dayShare(limits: BudgetLimits, counts: BudgetCounts): number | null {
  const shares = [
    limits.rpd === null ? null : counts.dayRequests / limits.rpd,
    limits.tpd === null ? null : counts.dayTokens / limits.tpd,
  ].filter((share): share is number => share !== null);
  return shares.length === 0 ? null : Math.min(1, Math.max(...shares));
}

/**
 * Where `counts` (already rolled to `now`) stand against `limits`: at a limit (until every reached limit's
 * window is over), near one, or fine.
 * @example budgetStanding({ rpm: 2, rpd: null, tpm: null, tpd: null }, counts with 2 requests this minute, now)
 *   // { type: 'at', until: <the next minute> }
 */
export function budgetStanding(limits: BudgetLimits, counts: BudgetCounts): BudgetStanding {
  const nextMinute = counts.minute + MINUTE_MS;
  const nextDay = counts.day + DAY_MS;
  const checks: [used: number, limit: number | null, until: number][] = [
    [counts.minuteRequests, limits.rpm, nextMinute],
    [counts.minuteTokens, limits.tpm, nextMinute],
    [counts.dayRequests, limits.rpd, nextDay],
    [counts.dayTokens, limits.tpd, nextDay],
  ];
  let until = counts.heldUntil;
  let near = false;
  for (const [used, limit, end] of checks) {
    if (limit === null) continue;
    if (used >= limit) until = until === null ? end : Math.max(until, end);
    else if (used >= limit * NEAR_SHARE) near = true;
  }
  if (until !== null) return { type: 'at', until };
  return near ? { type: 'near' } : { type: 'ok' };
}
