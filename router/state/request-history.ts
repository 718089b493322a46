/**
 * The last N decision traces, newest first for the dashboard, persisted so a restart keeps them. Entries hold
 * model names, kinds and timings only, never prompt or completion text. They are kept in a fixed ring: past
 * capacity a push overwrites the oldest in O(1), where an array trimmed with `splice` would move every
 * retained entry on each request.
 */
import { z } from 'zod/v3';
import type { HistoryEntry, HistoryResponse } from '../api-types.js';
import type { RouterLogger } from '../public-types.js';
import type { DailyCounters } from './daily-counters.js';
import { historyEntrySchema } from './history-entry.js';
import { computeHistoryStats, type RetainedStats } from './history-stats.js';
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
  /** The number the last entry was given: kept across a clear, and read back from the entries at a restart. */
  #lastSeq = 0;

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
    for (const entry of valid.slice(-this.entries.capacity)) {
      this.entries.push(entry);
      this.#lastSeq = Math.max(this.#lastSeq, entry.seq ?? 0);
    }
  }

  /** Appends one request's trace, numbered after the one before, dropping the oldest past capacity. */
  add(entry: HistoryEntry): void {
    this.#lastSeq += 1;
    entry.seq = this.#lastSeq;
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

/** A fixed-capacity ring: pushing past capacity overwrites the oldest item. */
export class RingBuffer<T> {
  readonly capacity: number;
  readonly #items: (T | undefined)[];
  /** Index of the oldest item. */
  #start = 0;
  #size = 0;

  /** @param capacity at least 1 */
  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.#items = new Array<T | undefined>(this.capacity);
  }

  get size(): number {
    return this.#size;
  }

  push(item: T): void {
    if (this.#size < this.capacity) {
      this.#items[(this.#start + this.#size) % this.capacity] = item;
      this.#size += 1;
    } else {
      this.#items[this.#start] = item;
      this.#start = (this.#start + 1) % this.capacity;
    }
  }

  /** Every item, oldest first (a new array). */
  toArray(): T[] {
    return this.newest(this.#size).reverse();
  }

  /** The newest `n` items (clamped to 0..size; none for NaN), newest first. */
  newest(n: number): T[] {
    const count = Number.isNaN(n) ? 0 : Math.max(0, Math.min(this.#size, Math.floor(n)));
    const out = new Array<T>(count);
    for (let i = 0; i < count; i += 1) {
      out[i] = this.#items[(this.#start + this.#size - 1 - i) % this.capacity] as T;
    }
    return out;
  }

  /** The items newest first, read lazily (no copy: a reader that stops early pays for what it read). */
  *newestFirst(): Generator<T, void, undefined> {
    for (let i = 0; i < this.#size; i += 1) {
      yield this.#items[(this.#start + this.#size - 1 - i) % this.capacity] as T;
    }
  }

  clear(): void {
    this.#items.fill(undefined);
    this.#start = 0;
    this.#size = 0;
  }
}
