/**
 * Breakers by model key (`provider/modelId`): the pure transitions of `breaker.ts` with a clock, one trial
 * slot per model and a persisted file, so an OPEN model stays OPEN across a restart.
 */
import { z } from 'zod/v3';
import type { BreakerStateName } from '../api-types.js';
import type { BreakerSettings } from './breaker.js';
import { FAILURE_KINDS, type FailureKind } from '../gate/failure-kinds.js';
import {
  breakerChanged,
  initialBreaker,
  recordFailure,
  recordSuccess,
  settle,
  type BreakerRecord,
} from './breaker.js';
import { StateBook, type StateBookOptions } from './state-book.js';

/** Entries not updated for this long are dropped on load: their cooldowns and counters are stale. */
export const BREAKER_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const timestamp = z.number().min(0);

/** One persisted breaker; unknown fields or states make the entry invalid. */
export const breakerRecordSchema = z
  .strictObject({
    state: z.enum(['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN']),
    consecutiveFailures: z.number().int().min(0),
    tripCount: z.number().int().min(0),
    cooldownMs: z.number().min(0),
    openedAt: timestamp.nullable(),
    lastFailureKind: z.enum(FAILURE_KINDS).nullable(),
    lastFailureAt: timestamp.nullable(),
    updatedAt: timestamp,
  })
  .refine((rec) => rec.openedAt !== null || (rec.state !== 'OPEN' && rec.state !== 'HALF_OPEN'), {
    message: 'an OPEN or HALF_OPEN breaker needs openedAt',
    path: ['openedAt'],
  });

/** Entries are checked one by one, so one bad entry does not cost the others. */
const fileSchema = z.strictObject({ breakers: z.record(z.string().min(1), z.unknown()) });

type BreakerFile = { breakers: Record<string, unknown> };

export interface BreakerStoreOptions extends StateBookOptions {
  /** Read on every transition, so a config change applies without a restart. */
  settings: () => BreakerSettings;
  /** Called after a record really changed (not for a mere `updatedAt`). */
  onChange?: (key: string) => void;
  /**
   * Whether a model is one of the config's or the catalogue's: only theirs are saved. Any other (a model
   * an agent pinned by an id of its choosing) is kept in memory only, at most {@link MAX_UNLISTED} of
   * them. @default every model is listed
   */
  isListed?: (key: string) => boolean;
}

/**
 * Breakers kept for models outside the config and the catalogue (pinned by id): the most recently
 * updated ones, so that any number of made-up ids cannot grow memory or the file.
 */
export const MAX_UNLISTED = 32;

export class BreakerStore extends StateBook<BreakerFile> {
  private readonly options: BreakerStoreOptions;
  private readonly records = new Map<string, BreakerRecord>();
  /** Bumped by every change to a record or a trial slot (see `version`). */
  private changes = 0;
  /** Keys with a trial in flight: at most one per model, so a recovering model is not stampeded. */
  private readonly trials = new Set<string>();
  private freshRecord: BreakerRecord | null = null;
  private freshSettings: BreakerSettings | null = null;

  constructor(options: BreakerStoreOptions) {
    super(options, fileSchema);
    this.options = options;
  }

  /** The records to save: the listed models' only. */
  protected snapshot(): BreakerFile {
    const isListed = this.options.isListed;
    const entries = [...this.records];
    return {
      breakers: Object.fromEntries(
        isListed === undefined ? entries : entries.filter(([key]) => isListed(key)),
      ),
    };
  }

  /**
   * A HALF_OPEN entry loads as OPEN (its trial, if one was in flight, never reported), entries idle for
   * 30 days are dropped, and an invalid entry is dropped with a warning.
   */
  protected restore(data: BreakerFile): void {
    const now = this.options.time.now();
    const settings = this.options.settings();
    let dropped = 0;
    for (const [key, value] of Object.entries(data.breakers)) {
      const parsed = breakerRecordSchema.safeParse(value);
      if (!parsed.success) {
        this.options.logger.warn(`breaker state: dropped invalid entry for ${key}`);
        dropped += 1;
        continue;
      }
      const rec = parsed.data;
      if (now - rec.updatedAt > BREAKER_TTL_MS) {
        dropped += 1;
        continue;
      }
      this.records.set(key, {
        ...rec,
        state: rec.state === 'HALF_OPEN' ? 'OPEN' : rec.state,
        // A lowered maxCooldownMs applies at once, and a clock that went back cannot stretch a cooldown.
        cooldownMs: Math.min(rec.cooldownMs, settings.maxCooldownMs),
        openedAt: rec.openedAt === null ? null : Math.min(rec.openedAt, now),
      });
    }
    this.pruneUnlisted();
    this.changes += 1;
    if (dropped > 0) this.changed();
  }

  /**
   * A number that changes whenever a record or a trial slot does: whatever was derived from the store
   * (a ranking) is still current while it stays the same.
   */
  get version(): number {
    return this.changes;
  }

  /** The settled record (an OPEN breaker past its cooldown becomes HALF_OPEN); unknown → fresh CLOSED. */
  get(key: string): BreakerRecord {
    const rec = this.records.get(key);
    if (rec === undefined) return this.fresh();
    // Only an OPEN breaker can settle; ranking asks about every model of a set on every request.
    if (rec.state !== 'OPEN') return rec;
    return this.commit(key, rec, settle(rec, this.options.time.now()));
  }

  /** The record of a model with no history: one shared, frozen object per settings. */
  private fresh(): BreakerRecord {
    const settings = this.options.settings();
    if (this.freshRecord === null || this.freshSettings !== settings) {
      this.freshRecord = Object.freeze(initialBreaker(this.options.time.now(), settings));
      this.freshSettings = settings;
    }
    return this.freshRecord;
  }

  /** Takes the model's single trial slot; false when another request holds it. */
  tryAcquireTrial(key: string): boolean {
    if (this.trials.has(key)) return false;
    this.trials.add(key);
    this.changes += 1;
    return true;
  }

  /** Frees the trial slot; call it in a `finally` once the trial's result is recorded. */
  releaseTrial(key: string): void {
    if (this.trials.delete(key)) this.changes += 1;
  }

  isTrialBusy(key: string): boolean {
    return this.trials.has(key);
  }

  /**
   * Records a served attempt. `sentToTrip`: the breaker's `tripCount` when the attempt went to it tripped
   * on purpose (a trial, a pinned or last-resort try), else null. Only such an attempt may close an OPEN or
   * HALF_OPEN breaker (see `recordSuccess`), and only while it is still the trip it was sent to: once the
   * breaker tripped again, a success that began before proves nothing about the model now.
   */
  recordSuccess(key: string, sentToTrip: number | null): void {
    // A model with no record is a fresh CLOSED breaker: a success leaves it as it is (nothing to record).
    if (!this.records.has(key)) return;
    const rec = this.get(key);
    const trial = sentToTrip !== null && sentToTrip === rec.tripCount;
    this.commit(key, rec, recordSuccess(rec, this.options.time.now(), this.options.settings(), trial));
  }

  /** Records a failure the classifier counts against the model. */
  recordFailure(key: string, kind: FailureKind): void {
    const rec = this.get(key);
    this.commit(key, rec, recordFailure(rec, kind, this.options.time.now(), this.options.settings()));
  }

  /**
   * Records the failure of a try that counts like a HALF_OPEN trial's even though the breaker is OPEN (the
   * soonest-cooldown try made when nothing else could be dispatched): it reopens with an escalated cooldown.
   */
  recordTrialFailure(key: string, kind: FailureKind): void {
    const rec = this.get(key);
    const asTrial: BreakerRecord = rec.state === 'OPEN' ? { ...rec, state: 'HALF_OPEN' } : rec;
    this.commit(key, rec, recordFailure(asTrial, kind, this.options.time.now(), this.options.settings()));
  }

  /**
   * Manual reset: the model starts over as a fresh CLOSED breaker with no trip history. Returns the state
   * it was in (an OPEN breaker past its cooldown as HALF_OPEN), CLOSED for a model with no record.
   */
  reset(key: string): BreakerStateName {
    if (!this.records.has(key)) return 'CLOSED';
    const rec = this.get(key);
    this.records.delete(key);
    this.changes += 1;
    this.changed();
    const fresh = initialBreaker(this.options.time.now(), this.options.settings());
    if (breakerChanged(rec, fresh)) this.options.onChange?.(key);
    return rec.state;
  }

  /** Keys with a stored record. */
  keys(): string[] {
    return [...this.records.keys()];
  }

  /** Drops the least recently updated breakers of unlisted models past {@link MAX_UNLISTED}. */
  private pruneUnlisted(): void {
    const isListed = this.options.isListed;
    if (isListed === undefined) return;
    const unlisted = [...this.records].filter(([key]) => !isListed(key));
    if (unlisted.length <= MAX_UNLISTED) return;
    unlisted.sort(([, a], [, b]) => a.updatedAt - b.updatedAt);
    for (const [key] of unlisted.slice(0, unlisted.length - MAX_UNLISTED)) this.records.delete(key);
  }

  /** Stores `next` when it differs from `prev`, persists and notifies; returns the current record. */
  private commit(key: string, prev: BreakerRecord, next: BreakerRecord): BreakerRecord {
    if (next === prev) return prev;
    const added = !this.records.has(key);
    this.records.set(key, next);
    if (added && this.options.isListed?.(key) === false) this.pruneUnlisted();
    this.changes += 1;
    this.changed();
    if (breakerChanged(prev, next)) this.options.onChange?.(key);
    return next;
  }
}
