/**
 * What every persisted book shares: one {@link JsonStateFile} with its path, schema, debounced write, the
 * quarantine of a bad file on load, flush and close. A book says only what it keeps (`snapshot`) and how it
 * takes a loaded file back (`restore`), and calls `changed()` after each change.
 */
import type { z } from 'zod/v3';
import type { RouterLogger } from '../public-types.js';
import type { Time } from './clock.js';
import { JsonStateFile } from './json-state-file.js';

/** What every persisted book is given. */
export interface StateBookOptions {
  /** The book's file. */
  file: string;
  /** The clock it dates entries by, and its write's debounce timer. */
  time: Time;
  /** How long after a change the file is written; changes within it make one write. */
  debounceMs: number;
  logger: RouterLogger;
}

/** A book kept in one state file: its payload `T` is what `snapshot` returns and `restore` receives. */
export abstract class StateBook<T extends object> {
  /** The clock the book dates its entries by (and its write's timer runs on). */
  protected readonly time: Time;
  readonly #file: JsonStateFile<T>;

  /**
   * @param schema validates the file's payload (it may fill in defaults or migrate an older shape).
   */
  protected constructor(options: StateBookOptions, schema: z.ZodType<T, z.ZodTypeDef, unknown>) {
    this.time = options.time;
    this.#file = new JsonStateFile<T>({
      path: options.file,
      schema,
      debounceMs: options.debounceMs,
      logger: options.logger,
      time: options.time,
      // Taken when a write starts, never in the constructor: the book's own fields exist by then.
      snapshot: () => this.snapshot(),
    });
  }

  /** The payload to write now. */
  protected abstract snapshot(): T;

  /** Takes back what a valid file held (called at most once per load, never for a missing or bad file). */
  protected abstract restore(data: T): void;

  /**
   * Restores the file. A missing one leaves the book empty; an unreadable or invalid one is moved aside
   * with a warning and the book starts empty.
   */
  async load(): Promise<void> {
    const data = await this.#file.load();
    if (data !== null) this.restore(data);
  }

  /** Writes now what changed. Never rejects: a failed write is logged and tried again by the next. */
  flush(): Promise<void> {
    return this.#file.flush();
  }

  /** Cancels the pending write and writes now; rejects when that write failed (it was logged). */
  close(): Promise<void> {
    return this.#file.close();
  }

  /** Marks the book changed: the file is written once the debounce has passed. */
  protected changed(): void {
    this.#file.schedule();
  }
}
