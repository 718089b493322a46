/**
 * What each provider's model list said when it was last fetched (model discovery), kept across restarts
 * in `discovery.json`: the config is resolved with it, so a catalogue model the provider no longer lists
 * is skipped before an agent meets its 404, and new ones can be offered. The last attempt per provider is
 * kept too, failed ones included, so the daily check does not call an unreachable provider again that day.
 */
import { z } from 'zod/v3';
import { StateBook, type StateBookOptions } from './state-book.js';

const fileSchema = z.strictObject({
  providers: z.record(
    z.string().min(1),
    z.strictObject({
      at: z.number(),
      ids: z.array(z.string().min(1).max(300)).max(10_000),
      /** Context windows the list gave, by listed id (absent from files written before). */
      windows: z.record(z.string().min(1).max(300), z.number().int().positive()).default({}),
    }),
  ),
  /** When each provider's list was last asked for, answered or not (absent from files written before). */
  lastAttemptAt: z.record(z.string().min(1), z.number()).default({}),
});
type DiscoveryFile = z.output<typeof fileSchema>;

/** One provider's list: when it was fetched, the ids it held (as the provider names them), their windows. */
export interface Discovery {
  at: number;
  ids: ReadonlySet<string>;
  windows: ReadonlyMap<string, number>;
}

export type DiscoveryBookOptions = StateBookOptions;

export class DiscoveryBook extends StateBook<DiscoveryFile> {
  private readonly lists = new Map<string, Discovery>();
  private readonly attempts = new Map<string, number>();

  constructor(options: DiscoveryBookOptions) {
    super(options, fileSchema);
  }

  protected snapshot(): DiscoveryFile {
    return {
      providers: Object.fromEntries(
        [...this.lists].map(([id, list]) => [
          id,
          { at: list.at, ids: [...list.ids], windows: Object.fromEntries(list.windows) },
        ]),
      ),
      lastAttemptAt: Object.fromEntries(this.attempts),
    };
  }

  protected restore(data: DiscoveryFile): void {
    for (const [id, list] of Object.entries(data.providers))
      this.lists.set(id, {
        at: list.at,
        ids: new Set(list.ids),
        windows: new Map(Object.entries(list.windows)),
      });
    for (const [id, at] of Object.entries(data.lastAttemptAt)) this.attempts.set(id, at);
  }

  /** Every provider's last list. */
  get all(): ReadonlyMap<string, Discovery> {
    return this.lists;
  }

  /** When the provider's list was last asked for (answered or not), or null if never. */
  lastAttemptAt(providerId: string): number | null {
    return this.attempts.get(providerId) ?? this.lists.get(providerId)?.at ?? null;
  }

  /** Records that the provider's list was asked for now (whatever the answer). */
  attempted(providerId: string): void {
    this.attempts.set(providerId, this.time.now());
    this.changed();
  }

  /** Records a provider's list, fetched now, with the context windows it gave by listed id. */
  record(providerId: string, ids: readonly string[], windows: Readonly<Record<string, number>> = {}): void {
    const now = this.time.now();
    this.lists.set(providerId, { at: now, ids: new Set(ids), windows: new Map(Object.entries(windows)) });
    this.attempts.set(providerId, now);
    this.changed();
  }
}
