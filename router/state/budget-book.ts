/**
 * Free-tier budget counts: requests and tokens per key (and model, unless the provider's limits are per
 * key) in the sliding minute and the provider's day (midnight to midnight in its time zone), kept in a persisted file so a restart forgets neither. Counters
 * are named by a scope and a key fingerprint (`groq/llama @6f0b3c1d2e4a`), never a key.
 */
import { z } from 'zod/v3';
import type { BudgetLimits } from '../catalogue/free-tier-limits.js';
import {
  addToMinute,
  budgetStanding,
  minuteRoomAt,
  DAY_MS,
  MINUTE_MS,
  pruned,
  roll,
  rolled,
  setMinuteUsed,
  takeBack,
  type BudgetCounts,
  type BudgetStanding,
  type RateLimitHint,
  type RateLimitHints,
} from './budget-standing.js';
import { StateBook, type StateBookOptions } from './state-book.js';
import { memoHolds, memoOf, type StandingMemo } from './standing-memo.js';

const count = z.number().int().min(0);
/** Files from before days had a time zone have no `dayEnd`: their days were UTC days. */
const dayFields = {
  day: z.number(),
  dayEnd: z.number().optional(),
  dayRequests: count,
  dayTokens: count,
  heldUntil: z.number().nullable(),
};
const sliceSchema = z.strictObject({ last: z.number(), requests: count, tokens: count });
/** Loading prunes what left the minute; the bound only keeps a damaged file from growing memory. */
const countsSchema = z
  .strictObject({ minute: z.array(sliceSchema).max(10_000), ...dayFields })
  .transform(({ dayEnd, ...counts }): BudgetCounts => ({ ...counts, dayEnd: dayEnd ?? counts.day + DAY_MS }));
/**
 * Counts as files held them while the minute was the fixed UTC minute: that minute's counts become one slice
 * dated its last millisecond, the latest they can have been made, so they never leave the window early.
 */
const fixedMinuteSchema = z
  .strictObject({ minute: z.number(), minuteRequests: count, minuteTokens: count, ...dayFields })
  .transform(({ minute, minuteRequests, minuteTokens, dayEnd, ...day }): BudgetCounts => ({
    minute:
      minuteRequests + minuteTokens > 0
        ? [{ last: minute + MINUTE_MS - 1, requests: minuteRequests, tokens: minuteTokens }]
        : [],
    ...day,
    dayEnd: dayEnd ?? day.day + DAY_MS,
  }));
const fileSchema = z.strictObject({
  counters: z.record(z.string().min(1), z.union([countsSchema, fixedMinuteSchema])),
});
type BudgetFile = z.output<typeof fileSchema>;

export type BudgetBookOptions = StateBookOptions;

export class BudgetBook extends StateBook<BudgetFile> {
  private readonly options: BudgetBookOptions;
  private readonly counters = new Map<string, BudgetCounts>();
  /** Each counter's standing while only time can change it (dropped at its next count). */
  private readonly standings = new Map<string, StandingMemo>();
  /** Bumped when a counter's standing changes (ok → near → at), not by every count. */
  private changes = 0;
  /** The latest hold any counter was given: none is live once the clock is past it. */
  private latestHold = 0;
  /** When each counter was last corrected by its provider (in memory: a restart takes nothing back). */
  private readonly correctedAt = new Map<string, number>();

  constructor(options: BudgetBookOptions) {
    super(options, fileSchema);
    this.options = options;
  }

  /** Counts of a day already over are dropped. */
  protected restore(data: BudgetFile): void {
    const now = this.options.time.now();
    this.standings.clear();
    for (const [id, counts] of Object.entries(data.counters)) {
      const current = pruned(counts, now);
      // The minute is kept oldest first (its standing and when that changes are read so); a hand-edited
      // file may not be.
      current.minute.sort((a, b) => a.last - b.last);
      // No hold outlasts a day: a damaged or hand-edited file cannot hold a key for ever.
      if (current.heldUntil !== null) current.heldUntil = Math.min(current.heldUntil, now + DAY_MS);
      if (live(current)) this.counters.set(id, current);
      this.noteHold(current);
    }
    this.changes += 1;
  }

  /** Changes whenever a counter's standing did: a ranking made without it changing is still current. */
  get version(): number {
    return this.changes;
  }

  /**
   * Whether any counter may be held by a provider's headers now: the cheap test that lets ranking skip
   * looking up the counters of models without limits.
   */
  holding(): boolean {
    // No clock read while no hold was ever given: ranking asks this for every model without limits.
    return this.latestHold !== 0 && this.options.time.now() < this.latestHold;
  }

  /** What counter `id` used in the current windows, its day being the day of time zone `zone`. */
  counts(id: string, zone: string): BudgetCounts {
    return rolled(this.counters.get(id), this.options.time.now(), zone);
  }

  /**
   * Where counter `id` stands against `limits` now, its daily limits counted in the day of `zone`. Ranking
   * asks this of every counted model on every request: the answer is remembered until a count or the
   * moment time alone may change it (see `standing-memo.ts`).
   */
  standing(id: string, zone: string, limits: BudgetLimits): BudgetStanding {
    const counts = this.counters.get(id);
    // No counts: every limit is at least 1, so nothing is near or reached.
    if (counts === undefined) return OK;
    const now = this.options.time.now();
    const memo = this.standings.get(id);
    if (memo !== undefined && memoHolds(memo, now, zone, limits)) return memo.standing;
    roll(counts, now, zone);
    const standing = budgetStanding(limits, counts);
    this.standings.set(id, memoOf(standing, counts, now, zone, limits));
    return standing;
  }

  /**
   * When counter `id`'s sliding minute has room for `tokens` more under `tpm`: null when it has now (or has
   * no counts), else when enough of it has slid out.
   */
  minuteRoomAt(id: string, zone: string, tpm: number, tokens: number): number | null {
    const counts = this.counters.get(id);
    if (counts === undefined) return null;
    roll(counts, this.options.time.now(), zone);
    return minuteRoomAt(counts, tpm, tokens);
  }

  /**
   * Counts `requests` requests and `tokens` tokens on counter `id`, in the day of `zone`; returns the moment
   * counted (what {@link uncount} takes).
   */
  add(id: string, zone: string, limits: BudgetLimits, requests: number, tokens: number): number {
    const now = this.options.time.now();
    this.update(id, zone, limits, (counts) => {
      addToMinute(counts, now, requests, tokens);
      counts.dayRequests += requests;
      counts.dayTokens += tokens;
    });
    return now;
  }

  /**
   * Takes back one request counted at `at` whose attempt never reached the provider: from the minute while
   * that second is in it, from the day while it is that day. Not after a correction by the provider since
   * `at`: its count, which replaced ours, never had the request.
   */
  uncount(id: string, zone: string, limits: BudgetLimits, at: number): void {
    if (!this.counters.has(id) || (this.correctedAt.get(id) ?? -Infinity) >= at) return;
    this.update(id, zone, limits, (counts) => takeBack(counts, at));
  }

  /**
   * A provider's own word on what is left: it replaces the count of the window it speaks of (a reset within
   * a minute is the minute's, a later one the day's) where that limit is known, and a budget at 0 is held
   * until its reset, limits known or not (with none, `limits` is all null and only the hold counts).
   */
  correct(id: string, zone: string, limits: BudgetLimits, hints: RateLimitHints): void {
    const now = this.options.time.now();
    this.correctedAt.set(id, now);
    this.update(id, zone, limits, (counts) => {
      fix(counts, hints.requests, { kind: 'requests', perMinute: limits.rpm, perDay: limits.rpd }, now);
      fix(counts, hints.tokens, { kind: 'tokens', perMinute: limits.tpm, perDay: limits.tpd }, now);
    });
  }

  private update(
    id: string,
    zone: string,
    limits: BudgetLimits,
    change: (counts: BudgetCounts) => void,
  ): void {
    const now = this.options.time.now();
    let counts = this.counters.get(id);
    if (counts === undefined) {
      counts = rolled(undefined, now, zone);
      this.counters.set(id, counts);
    } else roll(counts, now, zone);
    const before = budgetStanding(limits, counts).type;
    this.standings.delete(id);
    change(counts);
    this.noteHold(counts);
    if (budgetStanding(limits, counts).type !== before) this.changes += 1;
    this.changed();
  }

  private noteHold(counts: BudgetCounts): void {
    if (counts.heldUntil !== null) this.latestHold = Math.max(this.latestHold, counts.heldUntil);
  }

  /** Counters with nothing left in them are left out. */
  protected snapshot(): BudgetFile {
    const now = this.options.time.now();
    const counters: Record<string, BudgetCounts> = {};
    for (const [id, counts] of this.counters) {
      const current = pruned(counts, now);
      if (live(current)) counters[id] = current;
    }
    return { counters };
  }
}

const OK: BudgetStanding = { type: 'ok' };

/** A counter with anything in it: today's counts, the minute's (which may reach back past midnight), a hold. */
function live(counts: BudgetCounts): boolean {
  return (
    counts.dayRequests > 0 || counts.dayTokens > 0 || counts.minute.length > 0 || counts.heldUntil !== null
  );
}

/** The counter a provider's hint corrects, with its per-minute and per-day limits. */
interface HintedCounter {
  kind: 'requests' | 'tokens';
  perMinute: number | null;
  perDay: number | null;
}

/** Sets a counter to what the provider says is used, and holds the key when it says nothing is left. */
function fix(counts: BudgetCounts, hint: RateLimitHint | null, counter: HintedCounter, now: number): void {
  if (hint === null) return;
  const { kind, perMinute, perDay } = counter;
  const minute = hint.resetMs === null || hint.resetMs <= MINUTE_MS;
  const limit = minute ? perMinute : perDay;
  if (limit !== null) {
    const used = Math.max(0, limit - hint.remaining);
    if (minute) setMinuteUsed(counts, kind, used, now);
    else if (kind === 'requests') counts.dayRequests = used;
    else counts.dayTokens = used;
  }
  if (hint.remaining <= 0 && hint.resetMs !== null && hint.resetMs > 0) {
    // Every budget a provider reports resets within its day.
    const until = now + Math.min(hint.resetMs, DAY_MS);
    counts.heldUntil = counts.heldUntil === null ? until : Math.max(counts.heldUntil, until);
  }
}
