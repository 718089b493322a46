/**
 * What Codex's `config.toml` holds, as data: the parse that refuses a file that is not valid TOML, the forms
 * of `model_providers.fcm` a line edit cannot follow, and the check that an edit pointed Codex at the router
 * and changed nothing else. `codex-toml.ts` makes the edits. Pure.
 */
import { parse, TomlError } from 'smol-toml';
import { MODEL, type RouterTarget } from './router-target.js';
import { tomlStatements, type TomlLine } from './toml-lines.js';

/** The provider id setup adds, and the name Codex shows for it. */
export const PROVIDER = 'fcm';
const PROVIDER_NAME = 'fcm-router';
export const OUR_TABLE = ['model_providers', PROVIDER];
export const TOP_KEYS = ['model', 'model_provider', 'model_context_window'];
export const TABLE_KEYS = ['name', 'base_url', 'wire_api'];
/** How the file is named in messages when the caller does not say. */
export const DEFAULT_FILE = '~/.codex/config.toml';
const BY_HAND = 'add the settings by hand, as docs/agents.md shows';

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Whether two dotted paths (a table's, a key's) are the same. */
export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((part, index) => path[index] === part);
}

type Parsed = { ok: true; data: Table } | { ok: false; line: number; reason: string };

/** `text` parsed, or where and why it is not TOML (the parser's reason, never the file's text). */
function parsed(text: string): Parsed {
  try {
    return { ok: true, data: parse(text, { integersAsBigInt: 'asNeeded' }) };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? '';
    return { ok: false, line: error.line, reason };
  }
}

/** The data of the file as it is; throws, naming `file` and the line, when it is not valid TOML. */
export function parseFile(text: string, file: string): Table {
  const result = parsed(text);
  if (!result.ok)
    throw new Error(
      `${file} is not valid TOML (line ${result.line}, ${result.reason}): nothing was changed; fix it or move it aside`,
    );
  return result.data;
}

/** The data of the text an edit made; throws when the edit did not give valid TOML. */
export function parseEdited(text: string, file: string): Table {
  const result = parsed(text);
  if (!result.ok)
    throw new Error(
      `${file}: fcm-router could not edit it into valid TOML (line ${result.line}, ${result.reason}); nothing was changed: ${BY_HAND}`,
    );
  return result.data;
}

/** One canonical string per value, to compare two parsed documents (key order ignored). */
function canonical(value: unknown): string {
  if (value instanceof Date) return `date ${value.toISOString()}`;
  if (typeof value === 'bigint' || typeof value === 'number') return Object.is(value, -0) ? '-0' : `${value}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isTable(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** Whether two parsed values are the same (a table's key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** The data apart from what setup sets (and from `model_providers` once nothing else is in it). */
export function apartFromOurs(data: Table): string {
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !TOP_KEYS.includes(key)));
  const providers = rest.model_providers;
  if (isTable(providers)) {
    const others = Object.fromEntries(Object.entries(providers).filter(([key]) => key !== PROVIDER));
    const ours = providers[PROVIDER];
    const kept = isTable(ours)
      ? Object.fromEntries(Object.entries(ours).filter(([key]) => !TABLE_KEYS.includes(key)))
      : ours;
    if (kept !== undefined && (!isTable(kept) || Object.keys(kept).length > 0)) others[PROVIDER] = kept;
    if (Object.keys(others).length > 0) rest.model_providers = others;
    else delete rest.model_providers;
  }
  return canonical(rest);
}

/**
 * Throws when `model_providers`, or `model_providers.fcm`, is written in a form our table cannot be added
 * to or edited in: an inline table, or dotted keys outside a `[model_providers.fcm]` header.
 */
export function refuseUneditable(lines: readonly TomlLine[], file: string): void {
  let table: string[] = [];
  for (const statement of tomlStatements(lines)) {
    if (statement.kind !== 'key') table = statement.path;
    if (statement.kind !== 'key' || startsWith(table, OUR_TABLE)) continue;
    const full = [...table, ...statement.path];
    const name = samePath(full, ['model_providers'])
      ? 'model_providers'
      : startsWith(full, OUR_TABLE)
        ? 'model_providers.fcm'
        : null;
    if (name === null) continue;
    const how = full.length === name.split('.').length ? 'as an inline table' : 'with dotted keys';
    throw new Error(
      `${file}: ${name} is written ${how} (line ${statement.start + 1}), which fcm-router cannot edit safely; nothing was changed: write it as a [model_providers.fcm] table, as docs/agents.md shows, or remove it`,
    );
  }
}

/** The keys of our `[model_providers.fcm]` table and their values, as TOML. */
export function tableEntries(target: RouterTarget): [string, string][] {
  return [
    ['name', JSON.stringify(PROVIDER_NAME)],
    ['base_url', JSON.stringify(baseUrl(target))],
    ['wire_api', '"responses"'],
  ];
}

/** The base URL Codex is given: the router's `/v1`. */
function baseUrl(target: RouterTarget): string {
  return `${target.origin}/v1`;
}

/** Throws unless `after` points Codex at the router and holds the same as `before` otherwise. */
export function checkApplied(before: Table, after: string, target: RouterTarget, file: string): void {
  const data = parseEdited(after, file);
  const provider = isTable(data.model_providers) ? data.model_providers[PROVIDER] : undefined;
  const points =
    data.model === MODEL &&
    data.model_provider === PROVIDER &&
    (target.contextWindow === null || data.model_context_window === target.contextWindow) &&
    isTable(provider) &&
    provider.name === PROVIDER_NAME &&
    provider.base_url === baseUrl(target) &&
    provider.wire_api === 'responses';
  if (!points || apartFromOurs(before) !== apartFromOurs(data))
    throw new Error(
      `${file}: fcm-router could not set model, model_provider and [model_providers.fcm] without changing more; nothing was changed: ${BY_HAND}`,
    );
}
