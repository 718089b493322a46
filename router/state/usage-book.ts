/**
 * Token usage added up per local day, model and key (by fingerprint): what `GET /api/usage` and the Models
 * view show. Kept in a persisted file for the last {@link USAGE_DAYS} days.
 */
import { z } from 'zod/v3';
import { DAY_MS } from './budget-standing.js';
import { localDayKey } from './daily-counters.js';
import { StateBook, type StateBookOptions } from './state-book.js';

/** How many days of usage are kept. */
export const USAGE_DAYS = 31;

const count = z.number().int().min(0);
const tallySchema = z.strictObject({
  requests: count,
  promptTokens: count,
  completionTokens: count,
  /** Tokens estimated from the request's length (the upstream reported none), included in the others. */
  estimatedTokens: count,
});
const fileSchema = z.strictObject({
  days: z.record(z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.record(z.string().min(1), tallySchema)),
});
type UsageFile = z.output<typeof fileSchema>;

/** One model's and key's usage on one day. */
export type UsageTally = z.output<typeof tallySchema>;

/** Tokens of one served request, as the upstream reported them or as estimated. */
export interface ServedTokens {
  promptTokens: number | null;
  completionTokens: number | null;
  estimated?: boolean;
}

export type UsageBookOptions = StateBookOptions;

export class UsageBook extends StateBook<UsageFile> {
  /** Day → `model @fingerprint` → tally. */
  private readonly days = new Map<string, Map<string, UsageTally>>();

  constructor(options: UsageBookOptions) {
    super(options, fileSchema);
  }

  protected restore(data: UsageFile): void {
    for (const [day, tallies] of Object.entries(data.days))
      this.days.set(day, new Map(Object.entries(tallies)));
    this.prune();
  }

  /** Adds one served request of `model` on the key with `fingerprint`. */
  record(model: string, fingerprint: string, tokens: ServedTokens): void {
    const day = localDayKey(this.time.now());
    let tallies = this.days.get(day);
    if (tallies === undefined) {
      tallies = new Map();
      this.days.set(day, tallies);
      this.prune();
    }
    const id = `${model} @${fingerprint}`;
    const tally = tallies.get(id) ?? {
      requests: 0,
      promptTokens: 0,
      completionTokens: 0,
      estimatedTokens: 0,
    };
    const prompt = tokens.promptTokens ?? 0;
    const completion = tokens.completionTokens ?? 0;
    tally.requests += 1;
    tally.promptTokens += prompt;
    tally.completionTokens += completion;
    if (tokens.estimated === true) tally.estimatedTokens += prompt + completion;
    tallies.set(id, tally);
    this.changed();
  }

  /** Every kept day, newest first, each with its tallies by model and key fingerprint. */
  list(): { day: string; entries: { model: string; key: string; tally: UsageTally }[] }[] {
    return [...this.days.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([day, tallies]) => ({
        day,
        entries: [...tallies].map(([id, tally]) => {
          const at = id.lastIndexOf(' @');
          return { model: id.slice(0, at), key: id.slice(at + 2), tally: { ...tally } };
        }),
      }));
  }

  private prune(): void {
    const oldest = localDayKey(this.time.now() - (USAGE_DAYS - 1) * DAY_MS);
    for (const day of this.days.keys()) if (day < oldest) this.days.delete(day);
  }

  protected snapshot(): UsageFile {
    return {
      days: Object.fromEntries([...this.days].map(([day, tallies]) => [day, Object.fromEntries(tallies)])),
    };
  }
}
