/**
 * The one way state reaches disk: a versioned JSON file, validated on load, written atomically (fsync +
 * rename, mode 0600) after a debounce, with corrupt files kept aside rather than overwritten.
 */
import { mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod/v3';
import type { RouterLogger } from '../public-types.js';
import type { Time, TimerHandle } from './clock.js';

/** The format version every state file carries. */
export const STATE_FILE_VERSION = 1;

const envelopeSchema = z
  .object({ version: z.literal(STATE_FILE_VERSION), savedAt: z.number() })
  .passthrough();

export interface JsonStateFileOptions<T> {
  path: string;
  /**
   * Validates the file's payload (everything but `version` and `savedAt`); it may fill in defaults or
   * migrate an older shape, so what it reads need not be what it returns.
   */
  schema: z.ZodType<T, z.ZodTypeDef, unknown>;
  debounceMs: number;
  logger: RouterLogger;
  /** Dates the file (`savedAt`) and runs the debounce timer. */
  time: Time;
  /** The payload to write, taken when the write starts. */
  snapshot: () => T;
}

export class JsonStateFile<T extends object> {
  private readonly options: JsonStateFileOptions<T>;
  private dirty = false;
  private closed = false;
  private timer: TimerHandle | null = null;
  /** The tail of the write queue: each flush waits for the one before, so writes never overlap. */
  private queue: Promise<void> = Promise.resolve();

  constructor(options: JsonStateFileOptions<T>) {
    this.options = options;
  }

  /**
   * Reads and validates the file. Missing → null. Unreadable, unparsable or failing the schema → the file is
   * renamed to `<path>.corrupt-<time>` with a warning and null is returned, so the daemon starts clean and
   * nothing is silently overwritten.
   */
  async load(): Promise<T | null> {
    const { path } = this.options;
    await this.removeStaleTempFiles();
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      await this.moveAside(`cannot be read (${errorCode(error) ?? 'error'})`);
      return null;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // The parser's message quotes the file's text; the warning says only what is wrong.
      await this.moveAside('is not valid JSON');
      return null;
    }
    const envelope = envelopeSchema.safeParse(raw);
    if (!envelope.success) {
      await this.moveAside(`is not a version ${STATE_FILE_VERSION} state file`);
      return null;
    }
    const payload: Record<string, unknown> = { ...envelope.data };
    delete payload.version;
    delete payload.savedAt;
    const parsed = this.options.schema.safeParse(payload);
    if (!parsed.success) {
      await this.moveAside(`fails validation (${describeIssues(parsed.error)})`);
      return null;
    }
    return parsed.data;
  }

  /** Marks the state dirty and schedules a write after the debounce; calls within the window coalesce. */
  schedule(): void {
    this.dirty = true;
    if (this.timer !== null || this.closed) return;
    // A pending write does not keep the process alive (no timer on `time` does); shutdown calls close().
    this.timer = this.options.time.setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.options.debounceMs);
  }

  /** Writes now if dirty. Never rejects: a failed write is logged and leaves the state dirty. */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.writeIfDirty());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Cancels the pending timer and flushes. Later changes are only written by an explicit flush. Rejects
   * when that last write failed (it was logged), so a shutdown can say its state was not saved.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.options.time.clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    if (this.dirty) throw new Error(`state file ${this.options.path} was not saved`);
  }

  private async writeIfDirty(): Promise<void> {
    if (!this.dirty) return;
    const { path, time, logger, snapshot } = this.options;
    // Cleared before the snapshot: a change made while the write is in flight marks it dirty again.
    this.dirty = false;
    try {
      const body = { version: STATE_FILE_VERSION, savedAt: time.now(), ...snapshot() };
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      // A fresh options object each time: write-file-atomic fills in missing fields of the one it gets.
      // Compact JSON: a 10 000-entry breaker file serialises in a fraction of the pretty-printed time.
      await writeFileAtomic(path, `${JSON.stringify(body)}\n`, { mode: 0o600, fsync: true });
    } catch (error) {
      this.dirty = true;
      logger.error(`state file ${path}: write failed (${errorCode(error) ?? describeError(error)})`);
    }
  }

  /**
   * A process killed mid-write leaves write-file-atomic's temp file (`<name>.<uint32>`) beside the real
   * one; the real file is intact (the rename never happened), so the leftover is only clutter.
   */
  private async removeStaleTempFiles(): Promise<void> {
    const { path } = this.options;
    const prefix = `${basename(path)}.`;
    const names = await readdir(dirname(path)).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length))) {
        await unlink(join(dirname(path), name)).catch(() => undefined);
      }
    }
  }

  private async moveAside(problem: string): Promise<void> {
    const { path, time, logger } = this.options;
    const aside = `${path}.corrupt-${new Date(time.now()).toISOString().replace(/:/g, '-')}`;
    try {
      await rename(path, aside);
      logger.warn(`state file ${path} ${problem}; moved to ${aside}, starting clean`);
    } catch (error) {
      logger.warn(`state file ${path} ${problem}; could not move it aside (${errorCode(error) ?? 'error'})`);
    }
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
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
