/**
 * What every persisted book shares, and the one way state reaches disk: a versioned JSON file, validated on
 * load (a corrupt file is kept aside rather than overwritten), written atomically (fsync + rename, mode
 * 0600) after a debounce. A book says only what it keeps (`snapshot`) and how it takes a loaded file back
 * (`restore`), and calls `changed()` after each change.
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod/v3';
import { removeStaleTemps, writeFileAtomically } from '../files/atomic-write.js';
import type { RouterLogger } from '../public-types.js';
import type { Time, TimerHandle } from './clock.js';

/** The format version every state file carries. */
export const STATE_FILE_VERSION = 1;

const envelopeSchema = z
  .object({ version: z.literal(STATE_FILE_VERSION), savedAt: z.number() })
  .passthrough();

/**
 * Most writes `close` makes: a change that arrives during its write (a request booked as the router stops)
 * gets another, but a book that never stops changing cannot hold the stop.
 */
export const CLOSE_WRITES = 4;

/** What every persisted book is given. */
export interface StateBookOptions {
  /** The book's file. */
  file: string;
  /** The clock it dates entries by (and the file's `savedAt`), and its write's debounce timer. */
  time: Time;
  /** How long after a change the file is written; changes within it make one write. */
  debounceMs: number;
  logger: RouterLogger;
}

/** A book kept in one state file: its payload `T` is what `snapshot` returns and `restore` receives. */
export abstract class StateBook<T extends object> {
  /** The clock the book dates its entries by (and its write's timer runs on). */
  protected readonly time: Time;
  readonly #options: StateBookOptions;
  readonly #schema: z.ZodType<T, z.ZodTypeDef, unknown>;
  #dirty = false;
  #closed = false;
  #timer: TimerHandle | null = null;
  /** The tail of the write queue: each flush waits for the one before, so writes never overlap. */
  #queue: Promise<void> = Promise.resolve();

  /**
   * @param schema validates the file's payload (everything but `version` and `savedAt`); it may fill in
   *   defaults or migrate an older shape, so what it reads need not be what it returns.
   */
  protected constructor(options: StateBookOptions, schema: z.ZodType<T, z.ZodTypeDef, unknown>) {
    this.time = options.time;
    this.#options = options;
    this.#schema = schema;
  }

  /** The payload to write now (taken when a write starts). */
  protected abstract snapshot(): T;

  /** Takes back what a valid file held (called at most once per load, never for a missing or bad file). */
  protected abstract restore(data: T): void;

  /**
   * Restores the file. A missing one leaves the book empty; an unreadable, unparsable or invalid one is
   * renamed to `<file>.corrupt-<time>` with a warning and the book starts empty, so nothing is silently
   * overwritten.
   */
  async load(): Promise<void> {
    const data = await this.#read();
    if (data !== null) this.restore(data);
  }

  /** Writes now what changed. Never rejects: a failed write is logged, stays dirty and is tried again. */
  async flush(): Promise<void> {
    await this.#queued();
  }

  /**
   * Cancels the pending write and writes now, again while changes arrive during a write (up to
   * {@link CLOSE_WRITES} writes); later changes are only written by an explicit flush. Rejects when a write
   * failed (it was logged), so a shutdown can say its state was not saved.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.time.clearTimeout(this.#timer);
    this.#timer = null;
    const { file, logger } = this.#options;
    for (let writes = 0; writes < CLOSE_WRITES; writes += 1) {
      if (!(await this.#queued())) throw new Error(`state file ${file} was not saved`);
      if (!this.#dirty) return;
    }
    logger.error(
      `state file ${file}: still changing after ${CLOSE_WRITES} writes at close; the last change is not saved`,
    );
  }

  /** Queues a write of what changed; resolves false when it failed. */
  #queued(): Promise<boolean> {
    const run = this.#queue.then(() => this.#writeIfDirty());
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Marks the book changed: the file is written once the debounce has passed (changes within it coalesce). */
  protected changed(): void {
    this.#dirty = true;
    if (this.#timer !== null || this.#closed) return;
    // A pending write does not keep the process alive (no timer on `time` does); shutdown calls close().
    this.#timer = this.time.setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, this.#options.debounceMs);
  }

  async #read(): Promise<T | null> {
    const { file } = this.#options;
    // A process killed mid-write left its temp file beside the intact real one: only clutter. Nothing has
    // been written yet to date it against, so the router's clock stands in.
    await removeStaleTemps(file, this.time.now());
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      return this.#moveAside(`cannot be read (${errorCode(error) ?? 'error'})`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // The parser's message quotes the file's text; the warning says only what is wrong.
      return this.#moveAside('is not valid JSON');
    }
    const envelope = envelopeSchema.safeParse(raw);
    if (!envelope.success) return this.#moveAside(`is not a version ${STATE_FILE_VERSION} state file`);
    const payload: Record<string, unknown> = { ...envelope.data };
    delete payload.version;
    delete payload.savedAt;
    const parsed = this.#schema.safeParse(payload);
    if (!parsed.success) return this.#moveAside(`fails validation (${describeIssues(parsed.error)})`);
    return parsed.data;
  }

  /** Writes the book if it changed; false when the write failed (logged; the book stays dirty). */
  async #writeIfDirty(): Promise<boolean> {
    if (!this.#dirty) return true;
    const { file, logger } = this.#options;
    // Cleared before the snapshot: a change made while the write is in flight marks it dirty again.
    this.#dirty = false;
    try {
      const body = { version: STATE_FILE_VERSION, savedAt: this.time.now(), ...this.snapshot() };
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      // Compact JSON: a 10 000-entry breaker file serialises in a fraction of the pretty-printed time.
      await writeFileAtomically(file, `${JSON.stringify(body)}\n`, { mode: 0o600 });
      return true;
    } catch (error) {
      this.#dirty = true;
      logger.error(`state file ${file}: write failed (${errorCode(error) ?? describeError(error)})`);
      return false;
    }
  }

  /** Moves a bad file aside with a warning; null: the book starts clean. */
  async #moveAside(problem: string): Promise<null> {
    const { file, logger } = this.#options;
    const aside = `${file}.corrupt-${new Date(this.time.now()).toISOString().replace(/:/g, '-')}`;
    try {
      await rename(file, aside);
      logger.warn(`state file ${file} ${problem}; moved to ${aside}, starting clean`);
    } catch (error) {
      logger.warn(`state file ${file} ${problem}; could not move it aside (${errorCode(error) ?? 'error'})`);
    }
    return null;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string')
    return error.code;
  return undefined;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first few issues as `path: message`; zod's messages name expected types, not the values found. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
  const more = error.issues.length > 3 ? `, +${error.issues.length - 3} more` : '';
  return shown.join('; ') + more;
}
