/**
 * The last N decision traces, newest first for the dashboard, persisted so a restart keeps them. Entries hold
 * model names, kinds and timings only, never prompt or completion text.
 */
import { z } from 'zod/v3';
import type { HistoryEntry, HistoryResponse } from '../api-types.js';
import type { RouterLogger } from '../public-types.js';
import type { DailyCounters } from './daily-counters.js';
import { historyEntrySchema } from './history-entry.js';
import { computeHistoryStats, type RetainedStats } from './history-stats.js';
import { RingBuffer } from './ring-buffer.js';
import { StateBook, type StateBookOptions } from './state-book.js';

export const DEFAULT_HISTORY_CAPACITY = 500;
export const MIN_HISTORY_CAPACITY = 10;
export const DEFAULT_HISTORY_LIMIT = 50;

// `satisfies Record<…>` makes the compiler list every member of the union, so none is forgotten here.
/** Entries are checked one by one, so one bad entry does not cost the others. */
const fileSchema = z.strictObject({ entries: z.array(z.unknown()) });
type HistoryFile = { entries: unknown[] };

export interface RequestHistoryOptions extends StateBookOptions {
  /** @default 500 (at least 10) */
  capacity?: number;
}

export class RequestHistory extends StateBook<HistoryFile> {
  private readonly logger: RouterLogger;
  /** Past capacity the oldest entry is dropped. */
  private readonly entries: RingBuffer<HistoryEntry>;

  constructor(options: RequestHistoryOptions) {
    super(options, fileSchema);
    const capacity = options.capacity ?? DEFAULT_HISTORY_CAPACITY;
    this.entries = new RingBuffer(
      Math.max(MIN_HISTORY_CAPACITY, Number.isFinite(capacity) ? Math.floor(capacity) : 0),
    );
    this.logger = options.logger;
  }

  protected snapshot(): HistoryFile {
    return { entries: this.entries.toArray() };
  }

  /** Invalid entries are dropped (one warning with their count). */
  protected restore(data: HistoryFile): void {
    const valid: HistoryEntry[] = [];
    for (const raw of data.entries) {
      const parsed = historyEntrySchema.safeParse(raw);
      if (parsed.success) valid.push(parsed.data);
    }
    const dropped = data.entries.length - valid.length;
    if (dropped > 0) this.logger.warn(`request history: dropped ${dropped} invalid entries`);
    this.entries.clear();
    for (const entry of valid.slice(-this.entries.capacity)) this.entries.push(entry);
  }

  /** Appends one request's trace, dropping the oldest past capacity. */
  add(entry: HistoryEntry): void {
    this.entries.push(entry);
    this.changed();
  }

  /** Newest first; `limit` is clamped to 1..capacity. @default limit 50 */
  list(limit: number = DEFAULT_HISTORY_LIMIT): HistoryEntry[] {
    const wanted = Number.isFinite(limit) ? Math.floor(limit) : DEFAULT_HISTORY_LIMIT;
    const n = Math.min(this.entries.capacity, Math.max(1, wanted));
    return this.entries.newest(n);
  }

  /** Every retained entry, newest first, read lazily. */
  newestFirst(): Iterable<HistoryEntry> {
    return this.entries.newestFirst();
  }

  /** The retained entries' figures (today's counts are the day counters'). */
  stats(): RetainedStats {
    return computeHistoryStats(this.entries.toArray());
  }

  clear(): void {
    this.entries.clear();
    this.changed();
  }
}

/**
 * What `GET /api/history` and the router handle answer: the newest `limit` entries, the retained history's
 * figures, and today's counts from the day counters (the history keeps only its last entries).
 */
export function historyResponse(
  history: RequestHistory,
  counters: DailyCounters,
  limit?: number,
): HistoryResponse {
  return { entries: history.list(limit), stats: { ...history.stats(), ...counters.todayStats() } };
}
