/**
 * Codex's `config.toml`, edited as text so comments and layout survive: the top-level `model`,
 * `model_provider` and `model_context_window` keys and the `name`, `base_url` and `wire_api` keys of our
 * own `[model_providers.fcm]` table, nothing more (`codex-toml-undo.ts` takes them out again). The file is parsed before and after each edit: one that
 * is not valid TOML, or holds `model_providers.fcm` in a form a line edit cannot follow, or whose edit would
 * change anything else, is refused and nothing is written. Pure: text in, text out.
 */
import {
  checkApplied,
  DEFAULT_FILE,
  OUR_TABLE,
  parseFile,
  PROVIDER,
  refuseUneditable,
  samePath,
  tableEntries,
} from './codex-toml-data.js';
import { MODEL, type RouterTarget } from './router-target.js';
import {
  isBlank,
  isComment,
  joinLines,
  lineEnding,
  readLines,
  tomlStatements,
  type TomlLine,
  type TomlStatement,
} from './toml-lines.js';

/** The key statements before the first table header. */
export function topLevel(statements: readonly TomlStatement[]): TomlStatement[] {
  const first = statements.findIndex((statement) => statement.kind !== 'key');
  return first === -1 ? [...statements] : statements.slice(0, first);
}

/** Our `[model_providers.fcm]` header and the key statements under it, or null. */
export function ourTable(
  statements: readonly TomlStatement[],
): { header: TomlStatement; keys: TomlStatement[] } | null {
  const at = statements.findIndex((s) => s.kind === 'table' && samePath(s.path, OUR_TABLE));
  const header = statements[at];
  if (header === undefined) return null;
  const next = statements.findIndex((statement, index) => index > at && statement.kind !== 'key');
  return { header, keys: statements.slice(at + 1, next === -1 ? statements.length : next) };
}

export function endWithNewline(lines: TomlLine[]): void {
  const last = lines.at(-1);
  if (last !== undefined && last.eol === '') last.eol = lineEnding(lines);
}

/** Replaces a key's value, keeping what stands before it and a comment after it. */
export function replaceValue(lines: TomlLine[], statement: TomlStatement, value: string): void {
  const first = lines[statement.start]?.text ?? '';
  const last = lines[statement.end] ?? { text: '', eol: '' };
  const text = first.slice(0, statement.valueStart) + value + last.text.slice(statement.valueEnd);
  lines.splice(statement.start, statement.end - statement.start + 1, { text, eol: last.eol });
}

/** Removes a statement's lines; a comment at its end stays, on a line of its own. */
export function removeStatement(lines: TomlLine[], statement: TomlStatement): void {
  const last = lines[statement.end] ?? { text: '', eol: '' };
  const indent = /^\s*/.exec(lines[statement.start]?.text ?? '')?.[0] ?? '';
  const kept =
    statement.comment === -1 ? [] : [{ text: indent + last.text.slice(statement.comment), eol: last.eol }];
  lines.splice(statement.start, statement.end - statement.start + 1, ...kept);
}

/** Where top-level keys go in a file with none: above the first table and the comments just above it. */
function keysSpot(lines: readonly TomlLine[], statements: readonly TomlStatement[]): number {
  const header = statements.find((statement) => statement.kind !== 'key');
  let at = header === undefined ? lines.length : header.start;
  if (header !== undefined) while (at > 0 && isComment(lines[at - 1])) at -= 1;
  while (at > 0 && isBlank(lines[at - 1])) at -= 1;
  return at;
}

/** Sets top-level `key` in place, else adds it after the last top-level key. */
function setTopLevel(lines: TomlLine[], key: string, value: string): void {
  const statements = tomlStatements(lines);
  const top = topLevel(statements);
  const found = top.find((statement) => samePath(statement.path, [key]));
  if (found !== undefined) return replaceValue(lines, found, value);
  const last = top.at(-1);
  const at = last === undefined ? keysSpot(lines, statements) : last.end + 1;
  const eol = lineEnding(lines);
  lines.splice(at, 0, { text: `${key} = ${value}`, eol });
  // Keep a blank line between the top level and a table (or its comment) that follows it.
  if (last === undefined && at + 1 < lines.length && !isBlank(lines[at + 1]))
    lines.splice(at + 1, 0, { text: '', eol });
}

/**
 * Adds our table right after the top-level keys (and the comments just below them), before the user's own
 * tables: lines added at the end of the file later go where they would have gone without it.
 */
function insertTable(lines: TomlLine[], statements: readonly TomlStatement[], target: RouterTarget): void {
  const last = topLevel(statements).at(-1);
  let at = last === undefined ? 0 : last.end + 1;
  let end = at;
  while (isComment(lines[end])) end += 1;
  if (end >= lines.length || isBlank(lines[end])) at = end;
  const eol = lineEnding(lines);
  const table = [
    '',
    '[model_providers.fcm]',
    ...tableEntries(target).map(([key, value]) => `${key} = ${value}`),
  ];
  lines.splice(at, 0, ...table.map((text) => ({ text, eol })));
}

/** Sets our table's three keys in place (other keys in it stay), or adds the table. */
function setOurTable(lines: TomlLine[], target: RouterTarget): void {
  for (const [key, value] of tableEntries(target)) {
    const statements = tomlStatements(lines);
    const table = ourTable(statements);
    if (table === null) return insertTable(lines, statements, target);
    const found = table.keys.find((statement) => samePath(statement.path, [key]));
    if (found !== undefined) replaceValue(lines, found, value);
    else {
      const after = (table.keys.at(-1) ?? table.header).end + 1;
      lines.splice(after, 0, { text: `${key} = ${value}`, eol: lineEnding(lines) });
    }
  }
}

/**
 * `text` with Codex pointed at the router; every other line as it was. Throws a message naming `file` when
 * the text is not valid TOML or cannot be edited safely.
 */
export function applyCodex(text: string | null, target: RouterTarget, file = DEFAULT_FILE): string {
  const before = parseFile(text ?? '', file);
  const lines = readLines(text);
  refuseUneditable(lines, file);
  endWithNewline(lines);
  setTopLevel(lines, 'model', JSON.stringify(MODEL));
  setTopLevel(lines, 'model_provider', JSON.stringify(PROVIDER));
  if (target.contextWindow !== null) setTopLevel(lines, 'model_context_window', String(target.contextWindow));
  setOurTable(lines, target);
  const after = joinLines(lines);
  checkApplied(before, after, target, file);
  return after;
}
