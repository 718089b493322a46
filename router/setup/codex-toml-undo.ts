/**
 * Taking setup's part out of Codex's `config.toml` again, as text: our `[model_providers.fcm]` table, and
 * the top-level `model`, `model_provider` and `model_context_window` while they point at the router. Given
 * the backup from before setup, those three get back the values written there, in place; without one they
 * are removed. The result is parsed and must hold the same as before apart from those. Pure.
 */
import {
  apartFromOurs,
  DEFAULT_FILE,
  parseEdited,
  parseFile,
  PROVIDER,
  samePath,
  sameValue,
  TABLE_KEYS,
  TOP_KEYS,
} from './codex-toml-data.js';
import { endWithNewline, ourTable, removeStatement, replaceValue, topLevel } from './codex-toml.js';
import {
  isBlank,
  joinLines,
  readLines,
  tomlStatements,
  type TomlLine,
  type TomlStatement,
} from './toml-lines.js';

/** What undo made of the file: its text, and the keys given back the backup's values. */
export interface CodexPutBack {
  text: string;
  broughtBack: string[];
}

/**
 * Removes our table when it holds only keys setup writes. One that holds others too (lines the user added
 * under it) stays whole: those lines are theirs, and Codex does not load a provider without its `name`.
 */
function removeOurTable(lines: TomlLine[]): boolean {
  const table = ourTable(tomlStatements(lines));
  if (table === null || table.keys.length === 0) return false;
  if (!table.keys.every((statement) => TABLE_KEYS.some((key) => samePath(statement.path, [key]))))
    return false;
  for (const statement of [...table.keys].reverse()) removeStatement(lines, statement);
  const { header } = table;
  removeStatement(lines, header);
  if (header.comment === -1 && header.start > 0 && isBlank(lines[header.start - 1]))
    lines.splice(header.start - 1, 1);
  return true;
}

/** A key's value as written (every line of a multi-line one), without a comment after it. */
function valueText(lines: readonly TomlLine[], statement: TomlStatement): string {
  const { start, end, valueStart, valueEnd } = statement;
  if (start === end) return lines[start]?.text.slice(valueStart, valueEnd) ?? '';
  const first = lines[start];
  const middle = lines.slice(start + 1, end).map((line) => line.text + line.eol);
  const last = lines[end]?.text.slice(0, valueEnd) ?? '';
  return `${first?.text.slice(valueStart) ?? ''}${first?.eol ?? ''}${middle.join('')}${last}`;
}

function isTopKey(statement: TomlStatement): boolean {
  return TOP_KEYS.some((key) => samePath(statement.path, [key]));
}

/** The values the backup's top level gives the keys setup sets, as written there, by key. */
function savedValues(saved: string): Map<string, string> {
  const lines = readLines(saved);
  const ours = topLevel(tomlStatements(lines)).filter(isTopKey);
  return new Map(ours.map((statement) => [statement.path[0] ?? '', valueText(lines, statement)]));
}

/**
 * Gives the top-level keys setup sets the values in `saved` (in place, a comment after them kept), and
 * removes those `saved` has none for. Returns the keys given back a different value, or null when none of
 * the keys is in the file.
 */
function undoTopLevel(lines: TomlLine[], saved: ReadonlyMap<string, string>): string[] | null {
  const ours = topLevel(tomlStatements(lines)).filter(isTopKey);
  const broughtBack: string[] = [];
  // From the last up: an edit changes no line above it.
  for (const statement of [...ours].reverse()) {
    const key = statement.path[0] ?? '';
    const value = saved.get(key);
    if (value === undefined) {
      removeStatement(lines, statement);
      continue;
    }
    if (value !== valueText(lines, statement)) broughtBack.unshift(key);
    replaceValue(lines, statement, value);
  }
  return ours.length > 0 ? broughtBack : null;
}

/** The lines as text, without blank lines at either end. */
function tidied(lines: TomlLine[]): string {
  while (isBlank(lines[0])) lines.shift();
  while (isBlank(lines.at(-1))) lines.pop();
  return joinLines(lines);
}

interface TakeOut {
  /** Drop the three top-level keys whatever they say (to compare two versions apart from them). */
  anyModel: boolean;
  /** The backup's text: its values of the three keys are put back. */
  saved: string | null;
}

/** `text` without setup's part (see the file's comment); throws when that would change anything else. */
function takeOut(text: string, file: string, how: TakeOut): CodexPutBack {
  const before = parseFile(text, file);
  const lines = readLines(text);
  endWithNewline(lines);
  const pointsAtUs = before.model_provider === PROVIDER;
  const values = how.saved === null ? new Map<string, string>() : savedValues(how.saved);
  const tableRemoved = removeOurTable(lines);
  const broughtBack = pointsAtUs || how.anyModel ? undoTopLevel(lines, values) : null;
  if (!tableRemoved && broughtBack === null) return { text, broughtBack: [] };
  const after = tidied(lines);
  const data = parseEdited(after, file);
  const wanted = how.saved === null ? {} : parseFile(how.saved, file);
  const topRight =
    !pointsAtUs || TOP_KEYS.every((key) => !(key in data) || sameValue(data[key], wanted[key]));
  if (!topRight || apartFromOurs(before) !== apartFromOurs(data))
    throw new Error(
      `${file}: fcm-router could not remove its settings without changing more; nothing was changed`,
    );
  return { text: after, broughtBack: broughtBack ?? [] };
}

/**
 * `text` without what setup writes: our table (unless it holds keys setup did not write) and, when
 * `model_provider` is `"fcm"`, the top-level `model_provider`, `model` and `model_context_window` (set for
 * it). `anyModel` drops those three whatever they say, to compare two versions apart from what setup sets.
 * Every other line stays, a comment on a removed line too.
 */
export function stripCodex(text: string, file = DEFAULT_FILE, anyModel = false): string {
  return takeOut(text, file, { anyModel, saved: null }).text;
}

/**
 * {@link stripCodex}, but the three top-level keys get back the values `saved` (the backup from before
 * setup) has for them, where they stand; the keys given back a different value are named. Null when the
 * backup is not valid TOML.
 */
export function putBackCodex(text: string, saved: string, file = DEFAULT_FILE): CodexPutBack | null {
  try {
    parseFile(saved, file);
  } catch {
    return null;
  }
  return takeOut(text, file, { anyModel: false, saved });
}

/**
 * Whether the file now (`current`) holds the same as the backup (`saved`) apart from what setup sets, line
 * for line: then undo can put the backup back. A backup that is not valid TOML holds something else.
 */
export function sameCodexApartFromOurs(current: string, saved: string, file = DEFAULT_FILE): boolean {
  const ours = stripCodex(current, file, true).trimEnd();
  try {
    return stripCodex(saved, file, true).trimEnd() === ours;
  } catch {
    return false;
  }
}
