/**
 * Where one counter stands against its free-tier limits: over the last 60 s (a sliding minute) and in the
 * provider's current day (the window its daily limits reset in: from midnight to midnight in the provider's
 * time zone, UTC unless said otherwise, see `day-start.ts`). Pure.
 *
 * The minute slides because a fixed one lets up to twice the RPM through within 60 s across a minute's turn,
 * and the provider's own window then answers 429 first. It is kept as one slice per second that had counts
 * (at most 61 live, so memory is bounded whatever the rate), each holding the time of its latest count: a
 * slice leaves the window 60 s after that, so counts never leave early, and a slice holding one request
 * leaves exactly when that request is a minute old. Whole seconds rather than 5 s buckets: the resume time
 * is then at most a second late instead of up to five, and a minute holds one second's slice per request at
 * worst, which stays small.
 */
import type { BudgetLimits } from '../catalogue/free-tier-limits.js';
import { dayWindow } from './day-start.js';

export const MINUTE_MS = 60_000;
export { DAY_MS } from './day-start.js';
/** From this share of any limit on, a model ranks behind the others. */
export const NEAR_SHARE = 0.8;

/** What was counted in one second of the sliding minute. */
export interface MinuteSlice {
  /** When its latest count was made: the slice leaves the minute 60 s after. */
  last: number;
  requests: number;
  tokens: number;
}

/** What was used in the current windows, and a hold a provider's headers asked for. */
export interface BudgetCounts {
  /** The last 60 s, oldest slice first, one per second that had counts. */
  minute: MinuteSlice[];
  /** Start of the provider's day the day counts belong to (its midnight, in the provider's time zone). */
  day: number;
  /** When that day ends (the next midnight there): the day counts reset then. */
  dayEnd: number;
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

/** True when a provider's headers say a budget is spent and when it resets: a hold, limits known or not. */
export function holdsBudget(hints: RateLimitHints): boolean {
  return [hints.requests, hints.tokens].some(
    (hint) => hint !== null && hint.remaining <= 0 && hint.resetMs !== null && hint.resetMs > 0,
  );
}

export type BudgetStanding =
  | { type: 'ok' }
  /** Some limit is at least {@link NEAR_SHARE} used. */
  | { type: 'near' }
  /** A limit is reached: usable again at `until`. */
  | { type: 'at'; until: number };

/**
 * Counts with what left the minute dropped, an expired hold lifted and a day that is over emptied (a copy:
 * safe to change). Needs no time zone: the day carries its end.
 */
export function pruned(counts: BudgetCounts, now: number): BudgetCounts {
  const over = now >= counts.dayEnd;
  return {
    minute: counts.minute.filter((slice) => now - slice.last < MINUTE_MS).map((slice) => ({ ...slice })),
    day: counts.day,
    dayEnd: counts.dayEnd,
    dayRequests: over ? 0 : counts.dayRequests,
    dayTokens: over ? 0 : counts.dayTokens,
    heldUntil: counts.heldUntil !== null && counts.heldUntil > now ? counts.heldUntil : null,
  };
}

/**
 * Counts brought to `now` in the day of `zone` that holds it (a copy: safe to change): what left the minute
 * dropped, and day counts of another day emptied, whether that day is over or was counted in another zone
 * (a changed zone starts a new day).
 */
export function rolled(counts: BudgetCounts | undefined, now: number, zone: string): BudgetCounts {
  const { start, end } = dayWindow(now, zone);
  if (counts === undefined)
    return { minute: [], day: start, dayEnd: end, dayRequests: 0, dayTokens: 0, heldUntil: null };
  const current = pruned(counts, now);
  roll(current, now, zone);
  return current;
}

/**
 * {@link rolled} in place, allocating nothing: ranking asks where each key stands on every request, and a
 * copy of up to 61 slices per model per request would cost more than the rest of the ranking.
 */
export function roll(counts: BudgetCounts, now: number, zone: string): void {
  const { minute } = counts;
  let kept = 0;
  for (let i = 0; i < minute.length; i += 1) {
    const slice = minute[i] as MinuteSlice;
    if (now - slice.last >= MINUTE_MS) continue;
    if (kept !== i) minute[kept] = slice;
    kept += 1;
  }
  if (kept !== minute.length) minute.length = kept;
  const { start, end } = dayWindow(now, zone);
  if (counts.day !== start) {
    counts.dayRequests = 0;
    counts.dayTokens = 0;
  }
  counts.day = start;
  counts.dayEnd = end;
  if (counts.heldUntil !== null && counts.heldUntil <= now) counts.heldUntil = null;
}

/** Requests or tokens counted in the sliding minute. */
export function minuteUsed(counts: BudgetCounts, kind: 'requests' | 'tokens'): number {
  let used = 0;
  for (const slice of counts.minute) used += slice[kind];
  return used;
}

/** Counts `requests` and `tokens` in the minute's slice of `now` (a new slice in a new second). */
export function addToMinute(counts: BudgetCounts, now: number, requests: number, tokens: number): void {
  const latest = counts.minute.at(-1);
  if (latest !== undefined && Math.floor(latest.last / 1000) >= Math.floor(now / 1000)) {
    latest.last = Math.max(latest.last, now);
    latest.requests += requests;
    latest.tokens += tokens;
  } else counts.minute.push({ last: now, requests, tokens });
}

/** Takes one request counted at `at` out of the minute's slice of that second and the day, where they still hold it. */
export function takeBack(counts: BudgetCounts, at: number): void {
  const second = Math.floor(at / 1000);
  const index = counts.minute.findIndex((slice) => Math.floor(slice.last / 1000) === second);
  const slice = counts.minute[index];
  if (slice !== undefined && slice.requests > 0) {
    slice.requests -= 1;
    if (slice.requests === 0 && slice.tokens === 0) counts.minute.splice(index, 1);
  }
  if (at >= counts.day && counts.dayRequests > 0) counts.dayRequests -= 1;
}

/**
 * Makes the minute hold `used` requests or tokens (a provider's own count): more are counted now, fewer are
 * taken from the oldest slices first, the ones about to leave anyway.
 */
export function setMinuteUsed(
  counts: BudgetCounts,
  kind: 'requests' | 'tokens',
  used: number,
  now: number,
): void {
  let extra = minuteUsed(counts, kind) - used;
  if (extra < 0) {
    addToMinute(counts, now, kind === 'requests' ? -extra : 0, kind === 'tokens' ? -extra : 0);
    return;
  }
  for (const slice of counts.minute) {
    if (extra <= 0) break;
    const taken = Math.min(slice[kind], extra);
    slice[kind] -= taken;
    extra -= taken;
  }
  counts.minute = counts.minute.filter((slice) => slice.requests > 0 || slice.tokens > 0);
}

/**
 * When a minute at `limit` (requests or tokens) holds less again: the moment enough of its oldest slices
 * have left (a limit is at least 1, so the last slice leaving always frees it).
 */
function minuteFreesAt(
  counts: BudgetCounts,
  kind: 'requests' | 'tokens',
  used: number,
  limit: number,
): number {
  let left = used;
  let at = counts.minute.at(-1)?.last ?? 0;
  for (const slice of counts.minute) {
    left -= slice[kind];
    at = slice.last;
    if (left < limit) break;
  }
  return at + MINUTE_MS;
}

/**
 * When the sliding minute (rolled to now) has room for `tokens` more under `tpm`: null when it has now, else
 * the moment enough of its oldest slices have left.
 */
export function minuteRoomAt(counts: BudgetCounts, tpm: number, tokens: number): number | null {
  let used = minuteUsed(counts, 'tokens');
  if (used + tokens <= tpm) return null;
  for (const slice of counts.minute) {
    used -= slice.tokens;
    if (used + tokens <= tpm) return slice.last + MINUTE_MS;
  }
  return (counts.minute.at(-1)?.last ?? 0) + MINUTE_MS;
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
 * Where `counts` (already rolled to `now`) stand against `limits`: at a limit (until every reached limit
 * frees up: enough of the minute has slid out, or the day is over), near one, or fine.
 * @example budgetStanding({ rpm: 2, rpd: null, tpm: null, tpd: null }, counts with requests at 0:59 and 1:01)
 *   // { type: 'at', until: <1:59, when the 0:59 request is a minute old> }
 */
export function budgetStanding(limits: BudgetLimits, counts: BudgetCounts): BudgetStanding {
  // Asked for every model with limits on every ranking: one pass over the minute, no closures.
  let minuteRequests = 0;
  let minuteTokens = 0;
  for (const slice of counts.minute) {
    minuteRequests += slice.requests;
    minuteTokens += slice.tokens;
  }
  let until = counts.heldUntil;
  let near = false;
  const { rpm, tpm, rpd, tpd } = limits;
  if (rpm !== null && minuteRequests >= rpm)
    until = latest(until, minuteFreesAt(counts, 'requests', minuteRequests, rpm));
  else if (rpm !== null && minuteRequests >= rpm * NEAR_SHARE) near = true;
  if (tpm !== null && minuteTokens >= tpm)
    until = latest(until, minuteFreesAt(counts, 'tokens', minuteTokens, tpm));
  else if (tpm !== null && minuteTokens >= tpm * NEAR_SHARE) near = true;
  if (rpd !== null && counts.dayRequests >= rpd) until = latest(until, counts.dayEnd);
  else if (rpd !== null && counts.dayRequests >= rpd * NEAR_SHARE) near = true;
  if (tpd !== null && counts.dayTokens >= tpd) until = latest(until, counts.dayEnd);
  else if (tpd !== null && counts.dayTokens >= tpd * NEAR_SHARE) near = true;
  if (until !== null) return { type: 'at', until };
  return near ? NEAR : OK;
}

const OK: BudgetStanding = { type: 'ok' };
const NEAR: BudgetStanding = { type: 'near' };

function latest(until: number | null, end: number): number {
  return until === null ? end : Math.max(until, end);
}
