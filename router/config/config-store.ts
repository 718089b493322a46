/**
 * Reading and writing `config.json`. Loading never throws (a bad file comes back as issues the editor can
 * show); saving only ever replaces the file atomically, so a crash mid-write leaves the old file intact.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { checkProviders } from './resolve-config.js';
import { parseConfig } from './schema.js';
import type { Config, ConfigInput, ConfigIssue } from './schema.js';

export type LoadResult =
  | { ok: true; raw: ConfigInput; config: Config; existed: boolean }
  | { ok: false; issues: ConfigIssue[]; path: string };

/** Validates a config value: the schema first, then what it cannot see (custom providers). */
export function validateConfig(
  raw: unknown,
): { ok: true; config: Config } | { ok: false; issues: ConfigIssue[] } {
  const parsed = parseConfig(raw);
  if (!parsed.ok) return parsed;
  const issues = checkProviders(parsed.config);
  return issues.length > 0 ? { ok: false, issues } : parsed;
}

/** `line L, column C` of a character offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** JSON.parse's message with a line and column added (Node 20 names only a character position). */
function describeJsonError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/line \d+ column \d+/.test(message)) return `invalid JSON: ${message}`;
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `invalid JSON at ${lineColumn(text, Number(position))}: ${message}`;
  if (/end of JSON input/i.test(message))
    return `invalid JSON at ${lineColumn(text, text.length)}: ${message}`;
  return `invalid JSON: ${message}`;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function parseDefaults(): Config {
  const result = parseConfig({});
  if (!result.ok) throw new Error('the default config does not validate');
  return result.config;
}

/**
 * Loads and validates the config file. A missing file (or one holding only whitespace) is the defaults
 * with `existed: false`/`true`; unreadable or invalid JSON gives one issue at `(root)`.
 */
export async function loadConfigFile(file: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { ok: true, raw: {}, config: parseDefaults(), existed: false };
    return {
      ok: false,
      path: file,
      issues: [{ path: '(root)', message: `cannot read the file (${code ?? 'error'})` }],
    };
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: true, raw: {}, config: parseDefaults(), existed: true };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, path: file, issues: [{ path: '(root)', message: describeJsonError(error, text) }] };
  }
  const result = validateConfig(raw);
  if (!result.ok) return { ok: false, path: file, issues: result.issues };
  // The value passed the schema, so it is a valid input as written.
  return { ok: true, raw: raw as ConfigInput, config: result.config, existed: true };
}

/**
 * Writes the config as pretty JSON, readable by the user only (0600, folder 0700). The file is replaced
 * atomically (temp file, fsync, rename).
 */
export async function saveConfigFile(file: string, raw: ConfigInput): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
}
