/**
 * Per-day request counters, apart from the history's last 500 entries: every request counts, however many
 * came. Kept per local calendar day for the last {@link MAX_DAYS} days and persisted like the other state.
 * The local day is the user's calendar day, as the dashboard's "today" means it: request counters and token
 * usage (`usage-book.ts`) are kept per local day (free-tier budgets count in each provider's own day
 * instead, see budget-standing.ts).
 */
import { z } from 'zod/v3';
import type { HistoryEntry, HistoryStats } from '../api-types.js';
import { StateBook, type StateBookOptions } from './state-book.js';

/** `YYYY-MM-DD` of the local calendar day holding `ms`. */
export function localDayKey(ms: number): string {
  // Every finished request asks; the answer changes at local midnight.
  if (ms >= lastLocalDay.from && ms < lastLocalDay.until) return lastLocalDay.key;
  const day = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const key = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  const from = new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
  const until = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime();
  lastLocalDay = { from, until, key };
  return key;
}

let lastLocalDay = { from: 0, until: 0, key: '' };

/** Days kept in the file. */
export const MAX_DAYS = 31;

const count = z.number().int().min(0);
const dayCountsSchema = z.strictObject({
  servedFirstTry: count,
  servedAfterFailover: count,
  failed: count,
  clientAborted: count,
  rejected: count,
  promptTokens: count,
  completionTokens: count,
});

/** One day's counts. `failed`: partial, all failed, no candidates or a local fault (as the overview counts them). */
export type DayCounts = z.infer<typeof dayCountsSchema>;

const fileSchema = z.strictObject({
  days: z.record(z.string().regex(/^\d{4}-\d{2}-\d{2}$/), dayCountsSchema),
});
type CountersFile = z.infer<typeof fileSchema>;

/** A day with nothing counted yet. */
export const emptyDayCounts = (): DayCounts => ({
  servedFirstTry: 0,
  servedAfterFailover: 0,
  failed: 0,
  clientAborted: 0,
  rejected: 0,
  promptTokens: 0,
  completionTokens: 0,
});

/** Adds one request to a day's counts. Pure. */
export function countEntry(counts: DayCounts, entry: HistoryEntry): void {
  switch (entry.outcome) {
    case 'served':
      if (entry.attempts.length > 1) counts.servedAfterFailover += 1;
      else counts.servedFirstTry += 1;
      break;
    // A local fault (`internal_error`) failed the request as surely as its models did.
    case 'partial':
    case 'internal_error':
    case 'all_failed':
    case 'no_candidates':
      counts.failed += 1;
      break;
    case 'client_aborted':
      counts.clientAborted += 1;
      break;
    case 'rejected':
      counts.rejected += 1;
      break;
  }
  counts.promptTokens += entry.usage?.promptTokens ?? 0;
  counts.completionTokens += entry.usage?.completionTokens ?? 0;
}

export type DailyCountersOptions = StateBookOptions;

export class DailyCounters extends StateBook<CountersFile> {
  readonly #days = new Map<string, DayCounts>();

  constructor(options: DailyCountersOptions) {
    super(options, fileSchema);
  }

  protected snapshot(): CountersFile {
    return { days: Object.fromEntries(this.#days) };
  }

  /** Keeps the newest {@link MAX_DAYS} saved days. */
  protected restore(data: CountersFile): void {
    this.#days.clear();
    for (const key of Object.keys(data.days).sort().slice(-MAX_DAYS)) {
      const counts = data.days[key];
      if (counts) this.#days.set(key, { ...counts });
    }
  }

  /** `record` as a listener to the engine's `request` event (bound: subscribed as it is). */
  readonly recordRequest = (event: { entry: HistoryEntry }): void => this.record(event.entry);

  /** Counts one finished agent request on the local day it started (dashboard tests and probes stay out). */
  record(entry: HistoryEntry): void {
    if (entry.source !== 'agent') return;
    const key = localDayKey(entry.at);
    let counts = this.#days.get(key);
    if (!counts) {
      counts = emptyDayCounts();
      this.#days.set(key, counts);
      this.#prune();
    }
    countEntry(counts, entry);
    this.changed();
  }

  /** Today's counts (zeros on a day without requests). */
  today(): DayCounts {
    return { ...(this.#days.get(localDayKey(this.time.now())) ?? emptyDayCounts()) };
  }

  /** `HistoryStats.today` from today's counts. */
  todayStats(): Pick<HistoryStats, 'today'> {
    const counts = this.today();
    return {
      today: {
        servedFirstTry: counts.servedFirstTry,
        servedAfterFailover: counts.servedAfterFailover,
        failed: counts.failed,
        refused: counts.rejected,
        promptTokens: counts.promptTokens,
        completionTokens: counts.completionTokens,
      },
    };
  }

  #prune(): void {
    if (this.#days.size <= MAX_DAYS) return;
    const oldest = [...this.#days.keys()].sort().slice(0, this.#days.size - MAX_DAYS);
    for (const key of oldest) this.#days.delete(key);
  }
}
