/**
 * Reading and writing `config.json`. Loading never throws (a bad file comes back as issues the editor can
 * show); saving only ever replaces the file atomically, so a crash or a full disk mid-write leaves the old
 * file intact, and only through {@link writeConfigGuarded}, which refuses to replace content it has not
 * read, under a lock all writers take.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically, writeTarget } from '../files/atomic-write.js';
import { withWriterLock, type WriterLockOptions } from '../files/writer-lock.js';
import { systemTime } from '../state/clock.js';
import { configTextOf, duplicateIssues, withoutBom } from './config-text.js';
import { describeJsonError } from './json-error.js';
import { checkProviders } from './provider-checks.js';
import { parseConfig } from './schema.js';
import type { Config, ConfigInput, ConfigIssue } from './schema.js';

/** The revision of a config file that does not exist. */
export const NO_FILE_REVISION = 'none';

/**
 * `revision`: what the file held when it was read (a hash of its bytes, or {@link NO_FILE_REVISION}), so a
 * later write can tell whether someone else changed it since.
 */
export type LoadResult = (
  | { ok: true; raw: ConfigInput; config: Config; existed: boolean }
  | { ok: false; issues: ConfigIssue[]; path: string }
) & { revision: string };

/** The revision of a config file's bytes: a short hash of them. */
export function bytesRevision(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 24);
}

/** The revision of a config file holding `text` (as UTF-8). */
export function textRevision(text: string): string {
  return bytesRevision(Buffer.from(text, 'utf8'));
}

/** Validates a config value: the schema first, then what it cannot see (custom providers). */
export function validateConfig(
  raw: unknown,
): { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] } {
  const parsed = parseConfig(raw);
  if (!parsed.ok) return parsed;
  const issues = checkProviders(parsed.config);
  return issues.length > 0 ? { ok: false, issues } : parsed;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function parseDefaults(): Config {
  const result = parseConfig({});
  if (!result.ok) throw new Error('the default config does not validate');
  return result.config;
}

/** The file's bytes, `null` when there is none, or the error code that kept it from being read. */
async function readConfigBytes(file: string): Promise<{ bytes: Buffer | null } | { code: string }> {
  try {
    return { bytes: await readFile(file) };
  } catch (error) {
    const code = errorCode(error);
    return code === 'ENOENT' ? { bytes: null } : { code: code ?? 'error' };
  }
}

/**
 * The config in a file's bytes: UTF-8 text (a byte-order mark and blank content are allowed) holding JSON
 * with no name written twice in an object, which passes {@link validateConfig}.
 */
function parseConfigBytes(file: string, bytes: Uint8Array): LoadResult {
  const revision = bytesRevision(bytes);
  const decoded = configTextOf(bytes);
  if ('issue' in decoded) return { ok: false, path: file, issues: [decoded.issue], revision };
  const body = withoutBom(decoded.text);
  if (body.trim() === '') return { ok: true, raw: {}, config: parseDefaults(), existed: true, revision };
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    const issues = [{ path: '(root)', message: describeJsonError(error, body) }];
    return { ok: false, path: file, issues, revision };
  }
  // JSON.parse kept the last of a name written twice: refused, or the next save would drop the others.
  const duplicates = duplicateIssues(body);
  if (duplicates.length > 0) return { ok: false, path: file, issues: duplicates, revision };
  const result = validateConfig(raw);
  if (!result.ok) return { ok: false, path: file, issues: result.issues, revision };
  // The value passed the schema, so it is a valid input as written.
  return { ok: true, raw: raw as ConfigInput, config: result.config, existed: true, revision };
}

/**
 * Loads and validates the config file. A missing file (or one holding only whitespace) is the defaults
 * with `existed: false`/`true`; an unreadable file, bytes that are not UTF-8 or invalid JSON give one issue
 * at `(root)`, a name written twice in an object one at its path.
 */
export async function loadConfigFile(file: string): Promise<LoadResult> {
  const read = await readConfigBytes(file);
  if ('code' in read) {
    const issues = [{ path: '(root)', message: `cannot read the file (${read.code})` }];
    return { ok: false, path: file, issues, revision: `unreadable:${read.code}` };
  }
  if (read.bytes === null)
    return { ok: true, raw: {}, config: parseDefaults(), existed: false, revision: NO_FILE_REVISION };
  return parseConfigBytes(file, read.bytes);
}

/** The revision the file has now ({@link NO_FILE_REVISION} when there is none). */
export async function fileRevision(file: string): Promise<string> {
  const read = await readConfigBytes(file);
  if ('code' in read) return `unreadable:${read.code}`;
  return read.bytes === null ? NO_FILE_REVISION : bytesRevision(read.bytes);
}

/** The text a config is written as: pretty JSON and a final newline. */
function configText(raw: ConfigInput): string {
  return `${JSON.stringify(raw, null, 2)}\n`;
}

/**
 * The folder the config is written in (0700 when created): a symlinked one's target's, even while the
 * target does not exist yet. Resolves with the file written, where the writers take their lock.
 */
async function makeFolder(file: string): Promise<string> {
  const target = await writeTarget(file);
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  return target;
}

/**
 * Writes the config as pretty JSON, readable by the user only (0600, folder 0700). The file is replaced
 * atomically (temp file written whole, fsync, rename, folder fsync). Unguarded: writers go through
 * {@link writeConfigGuarded}.
 */
export async function saveConfigFile(file: string, raw: ConfigInput): Promise<string> {
  const text = configText(raw);
  await makeFolder(file);
  await writeFileAtomically(file, text, { mode: 0o600, syncFolder: true });
  return textRevision(text);
}

export type GuardedWrite =
  /** Written; `revision` is the file's new one. */
  | { ok: true; revision: string }
  /** Not written: the file is no longer what the writer read (`onDisk` is its revision now). */
  | { ok: false; onDisk: string };

/**
 * The one way `config.json` is written: only while the file still holds what the writer read
 * (`expected`, the revision it was read at), so an edit made in between is never replaced. The check and
 * the replace happen under `config.json.lock`, which every writer (the CLI's, the daemon's) takes, so two of
 * them cannot both pass the check; the file is checked again just before the rename, for an editor that
 * takes no lock. Write errors are thrown, the file as it was.
 */
export async function writeConfigGuarded(
  file: string,
  raw: ConfigInput,
  expected: string,
  lock: WriterLockOptions = { time: systemTime },
): Promise<GuardedWrite> {
  return withWriterLock(
    await makeFolder(file),
    async (): Promise<GuardedWrite> => {
      let onDisk = await fileRevision(file);
      if (onDisk !== expected) return { ok: false, onDisk };
      const text = configText(raw);
      const stillWanted = async (): Promise<boolean> => {
        onDisk = await fileRevision(file);
        return onDisk === expected;
      };
      const written = await writeFileAtomically(file, text, { mode: 0o600, syncFolder: true, stillWanted });
      return written ? { ok: true, revision: textRevision(text) } : { ok: false, onDisk };
    },
    lock,
  );
}

/** `EACCES: permission denied`: the code and the system's words, without the path (the caller names it). */
export function describeWriteError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (!code) return error instanceof Error ? error.message : String(error);
  const words = message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return `${code}: ${words}`;
}
