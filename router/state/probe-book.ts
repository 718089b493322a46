/**
 * What health probes have spent and found, kept across restarts in `probes.json`: each provider's probes of
 * its current day (counted in the provider's own time zone, as its free-tier limits are, so a daemon that
 * restarts, or crash-loops, cannot spend a provider's free quota again on probes) and each model's last
 * probe (shown in the Models view).
 */
import { z } from 'zod/v3';
import type { ProbeView } from '../api-types.js';
import { FAILURE_KINDS } from '../gate/failure-kinds.js';
import { dayWindow } from './day-start.js';
import { StateBook, type StateBookOptions } from './state-book.js';

const probeViewSchema = z.strictObject({
  at: z.number().min(0),
  ok: z.boolean(),
  kind: z.enum(FAILURE_KINDS).nullable(),
  latencyMs: z.number().min(0),
});

/** A provider's probes of one of its days, the day named by its first instant. */
const spentSchema = z.strictObject({ dayStart: z.number().min(0), count: z.number().int().min(0) });
type Spent = z.output<typeof spentSchema>;

/** An older file counted every provider in one UTC day: its counts are kept as that UTC day's. */
function fromOneUtcDay(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !('day' in raw) || typeof raw.day !== 'string') return raw;
  const { day, spent, ...rest } = raw as { day: string; spent?: unknown };
  if (typeof spent !== 'object' || spent === null) return raw;
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const counts = Object.entries(spent).map(([provider, count]) => [provider, { dayStart, count }]);
  return { ...rest, spent: Object.fromEntries(counts) };
}

const fileSchema = z.preprocess(
  fromOneUtcDay,
  z.strictObject({
    spent: z.record(z.string().min(1), spentSchema),
    last: z.record(z.string().min(1), probeViewSchema),
  }),
);
type ProbeFile = z.output<typeof fileSchema>;

export interface ProbeBookOptions extends StateBookOptions {
  /** The time zone a provider's day is counted in (its free-tier limits' day). */
  zoneOf: (provider: string) => string;
}

/** Probes spent per provider and day, and each model's last probe, persisted. */
export class ProbeBook extends StateBook<ProbeFile> {
  readonly #spent = new Map<string, Spent>();
  readonly #last = new Map<string, ProbeView>();
  readonly #zoneOf: (provider: string) => string;

  constructor(options: ProbeBookOptions) {
    super(options, fileSchema);
    this.#zoneOf = options.zoneOf;
  }

  protected snapshot(): ProbeFile {
    return { spent: Object.fromEntries(this.#spent), last: Object.fromEntries(this.#last) };
  }

  protected restore(data: ProbeFile): void {
    for (const [provider, spent] of Object.entries(data.spent)) this.#spent.set(provider, spent);
    for (const [key, view] of Object.entries(data.last)) this.#last.set(key, view);
  }

  /** Probes `provider` may still spend in its day under `limit`. */
  remaining(provider: string, limit: number): number {
    return Math.max(0, limit - this.#today(provider).count);
  }

  /** Probes `provider` spent in its current day. */
  spent(provider: string): number {
    return this.#today(provider).count;
  }

  /** Counts one probe of `provider` in its day. */
  spend(provider: string): void {
    const today = this.#today(provider);
    this.#spent.set(provider, { dayStart: today.dayStart, count: today.count + 1 });
    this.changed();
  }

  /** Takes back one probe of `provider` counted in its day (one that never reached the provider). */
  giveBack(provider: string): void {
    const today = this.#today(provider);
    if (today.count === 0) return;
    this.#spent.set(provider, { dayStart: today.dayStart, count: today.count - 1 });
    this.changed();
  }

  /** The last probe of `key`, or null. */
  last(key: string): ProbeView | null {
    return this.#last.get(key) ?? null;
  }

  /** Records `key`'s latest probe. */
  record(key: string, view: ProbeView): void {
    this.#last.set(key, view);
    this.changed();
  }

  /** The provider's probes of its current day: a new day starts its count at zero. */
  #today(provider: string): Spent {
    const dayStart = dayWindow(this.time.now(), this.#zoneOf(provider)).start;
    const spent = this.#spent.get(provider);
    return spent !== undefined && spent.dayStart === dayStart ? spent : { dayStart, count: 0 };
  }
}
