/**
 * What health probes have spent and found, kept across restarts in `probes.json`: each provider's probes of
 * the current UTC day (so a daemon that restarts, or crash-loops, cannot spend a provider's free quota
 * again on probes) and each model's last probe (shown in the Models view).
 */
import { z } from 'zod/v3';
import type { ProbeView } from '../api-types.js';
import { FAILURE_KINDS } from '../gate/failure-kinds.js';
import type { RouterLogger } from '../public-types.js';
import type { Clock } from './clock.js';
import { JsonStateFile } from './json-state-file.js';

const probeViewSchema = z.strictObject({
  at: z.number().min(0),
  ok: z.boolean(),
  kind: z.enum(FAILURE_KINDS).nullable(),
  latencyMs: z.number().min(0),
});

const fileSchema = z.strictObject({
  /** The UTC day `spent` counts, `YYYY-MM-DD`. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'),
  spent: z.record(z.string().min(1), z.number().int().min(0)),
  last: z.record(z.string().min(1), probeViewSchema),
});
type ProbeFile = z.output<typeof fileSchema>;

export interface ProbeBookOptions {
  file: string;
  clock: Clock;
  debounceMs: number;
  logger: RouterLogger;
}

/** The UTC day of `now`, `YYYY-MM-DD`. */
function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Probes spent per provider and UTC day, and each model's last probe, persisted. */
export class ProbeBook {
  #day = '';
  readonly #spent = new Map<string, number>();
  readonly #last = new Map<string, ProbeView>();
  readonly #clock: Clock;
  readonly #file: JsonStateFile<ProbeFile>;

  constructor(options: ProbeBookOptions) {
    this.#clock = options.clock;
    this.#file = new JsonStateFile<ProbeFile>({
      path: options.file,
      schema: fileSchema,
      debounceMs: options.debounceMs,
      logger: options.logger,
      clock: options.clock,
      snapshot: () => ({
        day: this.#day || utcDay(this.#clock()),
        spent: Object.fromEntries(this.#spent),
        last: Object.fromEntries(this.#last),
      }),
    });
  }

  /** Restores the file; an invalid one is moved aside (with a warning) and the book starts empty. */
  async load(): Promise<void> {
    const data = await this.#file.load();
    if (data === null) return;
    this.#day = data.day;
    for (const [provider, count] of Object.entries(data.spent)) this.#spent.set(provider, count);
    for (const [key, view] of Object.entries(data.last)) this.#last.set(key, view);
  }

  /** Probes `provider` may still spend today under `limit`. */
  remaining(provider: string, limit: number): number {
    this.#roll();
    return Math.max(0, limit - (this.#spent.get(provider) ?? 0));
  }

  /** Counts one probe of `provider` today. */
  spend(provider: string): void {
    this.#roll();
    this.#spent.set(provider, (this.#spent.get(provider) ?? 0) + 1);
    this.#file.schedule();
  }

  /** The last probe of `key`, or null. */
  last(key: string): ProbeView | null {
    return this.#last.get(key) ?? null;
  }

  /** Records `key`'s latest probe. */
  record(key: string, view: ProbeView): void {
    this.#last.set(key, view);
    this.#file.schedule();
  }

  flush(): Promise<void> {
    return this.#file.flush();
  }

  close(): Promise<void> {
    return this.#file.close();
  }

  /** A new UTC day starts every provider's count at zero. */
  #roll(): void {
    const day = utcDay(this.#clock());
    if (day === this.#day) return;
    this.#day = day;
    this.#spent.clear();
  }
}
