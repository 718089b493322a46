/**
 * What refusals taught about each model, kept across restarts in `fit.json` like breakers: the size of
 * request it refused as too large (its context window, or a key's whole tokens-per-minute), that it
 * refused tools or images, that it refused a request another model then served, and that it ignored a
 * forced tool call another model then made. Each fact carries where it came from and when. A later success
 * above a learnt ceiling raises it; a success with tools or images lifts that refusal; an agent's request
 * served lifts the refusal of a served request, and a request forcing a tool call served the ignored call.
 */
import { z } from 'zod/v3';
import { StateBook, type StateBookOptions } from './state-book.js';

/** Models kept at most (the oldest learnt is dropped first): pinned models may be any name. */
export const FIT_BOOK_MAX_MODELS = 2000;

/**
 * A refusal that names no limit, of a request this small or smaller, teaches no ceiling: no model a coding
 * agent can use has a window that small, so its words were wrong (a misworded error, a provider's glitch).
 */
export const MIN_LEARNT_SIZE = 4096;

/**
 * A ceiling no refusal stated (a size refused, or served above one) is a guess: after this long without
 * news it is forgotten, and a request over it goes once more (a refusal then teaches it again). One stray
 * refusal must not hold a model, and the set's advertised window, down for good.
 */
export const GUESSED_CEILING_MS = 24 * 3_600_000;

/**
 * How long a model that refused (4xx) a request another model then served ranks behind the others (and one
 * that ignored a forced tool call another model then made, behind them for requests forcing a call). Such a
 * refusal is the model's way with requests like it (a parameter or message shape its API will not take, a
 * tool choice it does not follow), so each new conversation would meet it again; after this long it is
 * asked once more.
 */
export const REFUSAL_LESSON_MS = 3_600_000;

/** A learnt ceiling: requests over `tokens` were refused (or, after a success, `tokens` was served). */
export interface LearnedCeiling {
  tokens: number;
  /** The model's context window, or the key's whole tokens-per-minute limit. */
  kind: 'context' | 'tpm';
  source: 'refusal' | 'served';
  /** The refusal stated the limit (its own window or TPM), so the ceiling is that limit, not a size seen. */
  stated?: boolean;
  at: number;
}

/** What refusals taught about one model. */
export interface LearnedFit {
  ceiling?: LearnedCeiling;
  /** When it refused tools. */
  noToolsAt?: number;
  /** When it refused images. */
  noImagesAt?: number;
  /** When it refused (4xx) a request that another model then served. */
  refusedServedAt?: number;
  /** When it answered a request that forced a tool call without the call, and another model then made it. */
  ignoredForcedAt?: number;
}

const ceilingSchema = z.strictObject({
  tokens: z.number().int().min(0),
  kind: z.enum(['context', 'tpm']),
  source: z.enum(['refusal', 'served']),
  stated: z.boolean().optional(),
  at: z.number(),
});
const learnedSchema = z.strictObject({
  ceiling: ceilingSchema.optional(),
  noToolsAt: z.number().optional(),
  noImagesAt: z.number().optional(),
  refusedServedAt: z.number().optional(),
  ignoredForcedAt: z.number().optional(),
});
const fileSchema = z.strictObject({ models: z.record(z.string().min(1).max(600), learnedSchema) });
type FitFile = z.output<typeof fileSchema>;

export type FitBookOptions = StateBookOptions;

/** A feature a model may refuse. */
export type Feature = 'tools' | 'images';

const FEATURE_FIELD = { tools: 'noToolsAt', images: 'noImagesAt' } as const;

/**
 * What ranks a model behind the others for a while: it refused (4xx) a request another model then served
 * (`refusedServedAt`), or ignored a forced tool call another model then made (`ignoredForcedAt`).
 */
export type Lesson = 'refusedServedAt' | 'ignoredForcedAt';
const LESSONS: readonly Lesson[] = ['refusedServedAt', 'ignoredForcedAt'];

/** The facts a success can lift. */
type Liftable = (typeof FEATURE_FIELD)[Feature] | Lesson;

/** What a served request asked for: tools, images, and a forced tool call (made, since it was served). */
export interface ServedAsks {
  tools: boolean;
  images: boolean;
  forcedCall?: boolean;
}

export class FitBook extends StateBook<FitFile> {
  readonly #models = new Map<string, LearnedFit>();
  /** The models each lesson holds (lately or not), so ranking looks no further while one holds none. */
  readonly #taught: Record<Lesson, Set<string>> = { refusedServedAt: new Set(), ignoredForcedAt: new Set() };

  constructor(options: FitBookOptions) {
    super(options, fileSchema);
  }

  protected snapshot(): FitFile {
    return { models: Object.fromEntries(this.#models) };
  }

  protected restore(data: FitFile): void {
    for (const [key, learned] of Object.entries(data.models)) {
      this.#models.set(key, learned);
      for (const lesson of LESSONS) if (learned[lesson] !== undefined) this.#taught[lesson].add(key);
    }
  }

  /** What was learnt about `key`, or undefined (the usual case: nothing); a guessed ceiling past its day is dropped. */
  get(key: string): LearnedFit | undefined {
    const learned = this.#models.get(key);
    const ceiling = learned?.ceiling;
    if (ceiling === undefined || ceiling.stated === true) return learned;
    if (this.time.now() - ceiling.at < GUESSED_CEILING_MS) return learned;
    const { ceiling: _expired, ...rest } = learned as LearnedFit;
    if (Object.keys(rest).length === 0) this.#models.delete(key);
    else this.#models.set(key, rest);
    this.changed();
    return this.#models.get(key);
  }

  /**
   * `key` refused a request of `size` tokens as too large. Requests of that size or more are over its
   * ceiling from now on (a limit the refusal stated lowers it further, never raises it); a size of
   * `MIN_LEARNT_SIZE` or less, with no limit stated, teaches nothing.
   */
  refusedSize(key: string, size: number, kind: LearnedCeiling['kind'], stated: number | null): void {
    const byStated = stated !== null && stated < size;
    if (!byStated && size <= MIN_LEARNT_SIZE) return;
    const tokens = Math.max(0, byStated ? stated : size - 1);
    const known = this.get(key)?.ceiling;
    if (known !== undefined && known.source === 'refusal' && known.tokens <= tokens) return;
    const ceiling: LearnedCeiling = { tokens, kind, source: 'refusal', at: this.time.now() };
    if (byStated) ceiling.stated = true;
    this.#update(key, { ceiling });
  }

  /**
   * `key` served a request of `size` tokens: a ceiling below it was wrong (or has moved) and is raised, a
   * refused feature the request used is lifted, and so is a refusal of what another model served when an
   * agent sent the request (a probe's or a dashboard test's small request says nothing of an agent's), and
   * a forced tool call ignored when the request forced one.
   */
  served(key: string, size: number, features: ServedAsks, byAgent: boolean): void {
    const learned = this.get(key);
    if (learned === undefined) return;
    const { ceiling } = learned;
    const patch: LearnedFit = {};
    if (ceiling !== undefined && size > ceiling.tokens)
      patch.ceiling = { tokens: size, kind: ceiling.kind, source: 'served', at: this.time.now() };
    const lifted: Liftable[] = (['tools', 'images'] as const)
      .filter((feature) => features[feature] && learned[FEATURE_FIELD[feature]] !== undefined)
      .map((feature) => FEATURE_FIELD[feature]);
    if (byAgent && learned.refusedServedAt !== undefined) lifted.push('refusedServedAt');
    if (features.forcedCall === true && learned.ignoredForcedAt !== undefined) lifted.push('ignoredForcedAt');
    if (patch.ceiling === undefined && lifted.length === 0) return;
    this.#update(key, patch, lifted);
  }

  /** `key` refused a request for using `feature`. */
  refusedFeature(key: string, feature: Feature): void {
    this.#update(key, { [FEATURE_FIELD[feature]]: this.time.now() });
  }

  /**
   * `key` taught `lesson`: it refused (4xx) a request another model then served, or ignored a forced tool
   * call another model then made. It ranks behind the others for a while (`REFUSAL_LESSON_MS`).
   */
  learn(key: string, lesson: Lesson): void {
    this.#update(key, { [lesson]: this.time.now() });
  }

  /** When `key` taught `lesson`, if that was less than `REFUSAL_LESSON_MS` ago; else null. */
  lately(key: string, lesson: Lesson): number | null {
    if (this.#taught[lesson].size === 0) return null;
    const at = this.#models.get(key)?.[lesson];
    return at !== undefined && this.time.now() - at < REFUSAL_LESSON_MS ? at : null;
  }

  /** Whether any model holds `lesson` (lately or not): the ranking's fast path. */
  anyTaught(lesson: Lesson): boolean {
    return this.#taught[lesson].size > 0;
  }

  /** Forgets what was learnt about `key` (a manual reset of the model). */
  forget(key: string): void {
    for (const lesson of LESSONS) this.#taught[lesson].delete(key);
    if (this.#models.delete(key)) this.changed();
  }

  #update(key: string, patch: LearnedFit, lifted: readonly Liftable[] = []): void {
    const next: LearnedFit = { ...this.#models.get(key), ...patch };
    for (const field of lifted) delete next[field];
    for (const lesson of LESSONS)
      if (next[lesson] === undefined) this.#taught[lesson].delete(key);
      else this.#taught[lesson].add(key);
    // Newest last, so the oldest is the first dropped; a model nothing is known of any more is dropped.
    this.#models.delete(key);
    if (Object.keys(next).length > 0) this.#models.set(key, next);
    if (this.#models.size > FIT_BOOK_MAX_MODELS) {
      const oldest = this.#models.keys().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
    this.changed();
  }
}
