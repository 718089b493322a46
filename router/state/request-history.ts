/**
 * The last N decision traces, newest first for the dashboard, persisted so a restart keeps them. Entries hold
 * model names, kinds and timings only, never prompt or completion text.
 */
import { z } from 'zod/v3';
import {
  API_FACES,
  REQUEST_SOURCES,
  type AttemptView,
  type HistoryEntry,
  type HistoryResponse,
} from '../api-types.js';
import { FAILURE_KINDS, REQUEST_OUTCOMES, SKIP_REASONS } from '../gate/failure-kinds.js';
import type { RouterLogger } from '../public-types.js';
import type { DailyCounters } from './daily-counters.js';
import { computeHistoryStats, type RetainedStats } from './history-stats.js';
import { isKeyFingerprint } from './key-fingerprint.js';
import { RingBuffer } from './ring-buffer.js';
import { StateBook, type StateBookOptions } from './state-book.js';

export const DEFAULT_HISTORY_CAPACITY = 500;
export const MIN_HISTORY_CAPACITY = 10;
export const DEFAULT_HISTORY_LIMIT = 50;

// `satisfies Record<…>` makes the compiler list every member of the union, so none is forgotten here.
const ROLES = {
  normal: true,
  trial: true,
  panic: true,
  last_resort: true,
  pinned: true,
  hedge: true,
  continuation: true,
} satisfies Record<AttemptView['role'], true>;

const enumOf = <K extends string>(record: Record<K, true>) => z.enum(Object.keys(record) as [K, ...K[]]);
const name = z.string().min(1).max(500);
const ms = z.number().min(0);
const count = z.number().int().min(0).nullable();

/** One persisted history entry; unknown fields make it invalid. */
export const historyEntrySchema: z.ZodType<HistoryEntry, z.ZodTypeDef, unknown> = z.strictObject({
  requestId: z.string().min(1).max(200),
  at: z.number(),
  modelRequested: z.string().max(500),
  set: name.nullable(),
  pinned: name.nullable(),
  servedModel: name.nullable(),
  outcome: z.enum(REQUEST_OUTCOMES),
  stream: z.boolean(),
  wallMs: ms,
  attempts: z
    .array(
      z.strictObject({
        model: name,
        status: z.number().int().nullable(),
        kind: z.enum(FAILURE_KINDS).nullable(),
        latencyMs: ms,
        breakerBefore: z.enum(['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN']),
        role: enumOf(ROLES),
        note: z.string().max(300).optional(),
        key: z.string().refine(isKeyFingerprint, 'a key fingerprint').optional(),
      }),
    )
    .max(100),
  skipped: z
    .array(
      z.strictObject({
        model: name,
        reason: z.enum(SKIP_REASONS),
        limit: z.number().int().min(0).optional(),
        until: z.number().optional(),
      }),
    )
    .max(2000),
  client: z.string().max(200).nullable(),
  clientStatus: z.number().int(),
  lastResortUsed: z.boolean(),
  usage: z
    .strictObject({ promptTokens: count, completionTokens: count, estimated: z.boolean().optional() })
    .nullable(),
  // Entries written before these fields existed came from agents, on chat completions.
  source: z.enum(REQUEST_SOURCES).default('agent'),
  api: z.enum(API_FACES).default('chat'),
  size: z.number().int().min(0).optional(),
  session: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  sticky: name.optional(),
});

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
