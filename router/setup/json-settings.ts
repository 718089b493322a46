/**
 * The JSON settings files we edit (Claude Code's `settings.json`, OpenCode's `opencode.json`): parse, set
 * or remove only our keys, write back with the file's own indentation. Pure: text in, text out.
 */
import { z } from 'zod/v3';
import { duplicateMembers } from '../config/json-duplicates.js';
import { jsonErrorPlace, placeOf } from '../config/json-error.js';

/** A JSON settings file's top level: an object whose other keys we keep untouched. */
const settingsSchema = z.record(z.unknown());
const objectSchema = z.record(z.unknown());

export type JsonObject = Record<string, unknown>;

/** The parsed object of `text` (an empty or missing file is `{}`); throws a message naming `file`. */
export function parseSettings(text: string | null, file: string): JsonObject {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${whyNotJson(text, error)}); nothing was changed`);
  }
  // JSON.parse kept the last of a name written twice: written back, the file would lose the others.
  const twice = duplicateMembers(text, 1)[0];
  if (twice !== undefined) {
    const [first, again] = [placeOf(text, twice.first).line, placeOf(text, twice.again).line];
    const where = first === again ? `line ${first}` : `lines ${first} and ${again}`;
    throw new Error(
      `${file} holds a name twice in one object (${where}): setup would keep only the last; merge them; nothing was changed`,
    );
  }
  const parsed = settingsSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${file} does not hold a JSON object; nothing was changed`);
  return parsed.data;
}

/**
 * Why `text` did not parse, in one line that never quotes it (a settings file may hold keys): comments,
 * which setup cannot keep, or where it stops being JSON.
 */
function whyNotJson(text: string, error: unknown): string {
  if (/^\s*\/\/|\/\*|[,{[]\s*\/\//m.test(text))
    return 'it holds comments, which setup cannot keep: add the settings by hand, as docs/agents.md shows';
  const { line, column } = jsonErrorPlace(error, text);
  return `at line ${line}, column ${column}: fix or move it`;
}

/** The object at `key` of `parent` (a copy), or `{}` when absent or not an object. */
export function childObject(parent: JsonObject, key: string): JsonObject {
  const parsed = objectSchema.safeParse(parent[key]);
  return parsed.success && !Array.isArray(parent[key]) ? { ...parsed.data } : {};
}

/**
 * `parent` with the object at `key` changed by `edit` (dropped when that leaves it empty); key order kept.
 * A value that is not an object is left as it is: it is not ours.
 */
export function editChild(parent: JsonObject, key: string, edit: (child: JsonObject) => void): JsonObject {
  const value = parent[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return parent;
  const child = { ...(value as JsonObject) };
  edit(child);
  const out: JsonObject = {};
  for (const [name, kept] of Object.entries(parent)) {
    if (name !== key) out[name] = kept;
    else if (Object.keys(child).length > 0) out[name] = child;
  }
  return out;
}

/** What undo made of a settings file from its backup: the settings, and the keys given back their old values. */
export interface PutBack {
  settings: JsonObject;
  /** Dotted paths (`env.ANTHROPIC_MODEL`) of the keys given back a value other than setup's. */
  broughtBack: string[];
}

/**
 * Gives `key` of `into` the value `from` has for it (where it stands), or removes it when `from` has none.
 * Returns whether a different value came back.
 */
export function valueBack(into: JsonObject, from: JsonObject, key: string): boolean {
  if (!Object.hasOwn(from, key)) {
    delete into[key];
    return false;
  }
  const changed = !sameJson(into[key], from[key]);
  into[key] = from[key];
  return changed;
}

/** The indentation the file uses (its first indented line), two spaces by default. */
function indentOf(text: string | null): string | number {
  const match = /\n([ \t]+)\S/.exec(text ?? '');
  return match?.[1] ?? 2;
}

/** `value` written the way `original` was (its indentation, a final newline). */
export function formatSettings(value: JsonObject, original: string | null): string {
  return `${JSON.stringify(value, null, indentOf(original))}\n`;
}

/** Whether two parsed documents hold the same data (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as JsonObject).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
  }
  return value;
}
