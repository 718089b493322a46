/**
 * A TOML file as lines, and where its statements are: each table header and each key/value pair, with the
 * line span of its value, found by scanning outside strings, so a line inside a multi-line string or array
 * is never taken for a key. Meant for text already checked by a TOML parser. Pure.
 */

/** One line: its text and its own line ending (`''` on a last line without one). */
export interface TomlLine {
  text: string;
  eol: string;
}

/** A table header (`[a.b]`, `[[a.b]]`) or a key/value pair (`a.b = …`). */
export interface TomlStatement {
  kind: 'table' | 'array-table' | 'key';
  /** The header's path, or the key's (a dotted key has several parts); quoted parts unquoted. */
  path: string[];
  /** The line it starts on and the line it ends on (a multi-line string or array spans several). */
  start: number;
  end: number;
  /** Where the value starts on line `start` (a key's), and where it ends on line `end`, before a comment. */
  valueStart: number;
  valueEnd: number;
  /** Where a comment starts on line `end`; -1 when there is none. */
  comment: number;
}

type Mode = 'none' | 'multiline-basic' | 'multiline-literal';

/** What is open at the end of a line: a multi-line string, or brackets (arrays, inline tables). */
interface ScanState {
  mode: Mode;
  depth: number;
}

/** `text` as lines, each with its own ending. */
export function readLines(text: string | null): TomlLine[] {
  if (text === null || text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const lines = parts.map((part) =>
    part.endsWith('\r') ? { text: part.slice(0, -1), eol: '\r\n' } : { text: part, eol: '\n' },
  );
  if (last !== '') lines.push({ text: last, eol: '' });
  return lines;
}

/** The lines back as text. */
export function joinLines(lines: readonly TomlLine[]): string {
  return lines.map((line) => line.text + line.eol).join('');
}

/** The line ending the file uses (its first line's), `\n` when it has none. */
export function lineEnding(lines: readonly TomlLine[]): string {
  return lines.find((line) => line.eol !== '')?.eol ?? '\n';
}

/** Whether a line holds nothing but blanks. */
export function isBlank(line: TomlLine | undefined): boolean {
  return line !== undefined && line.text.trim() === '';
}

/** Whether a line holds only a comment. */
export function isComment(line: TomlLine | undefined): boolean {
  return line !== undefined && line.text.trimStart().startsWith('#');
}

/** Index after the single-line string that opens at `at` (`"…"` with escapes, or `'…'`). */
function endOfString(text: string, at: number): number {
  const quote = text[at];
  let index = at + 1;
  while (index < text.length && text[index] !== quote) index += quote === '"' && text[index] === '\\' ? 2 : 1;
  return Math.min(index + 1, text.length);
}

/** Index after the multi-line string closing on this line (up to two quotes before the closing three). */
function closeMultiline(text: string, at: number, state: ScanState): number {
  const quote = state.mode === 'multiline-basic' ? '"' : "'";
  let index = at;
  while (index < text.length) {
    if (quote === '"' && text[index] === '\\') {
      index += 2;
    } else if (text.startsWith(quote.repeat(3), index)) {
      let run = 3;
      while (run < 5 && text[index + run] === quote) run += 1;
      state.mode = 'none';
      return index + run;
    } else index += 1;
  }
  return text.length;
}

/** Scans one line on from `at` in `state` (which it updates); where a comment starts, or -1. */
function scanLine(text: string, at: number, state: ScanState): number {
  let index = at;
  while (index < text.length) {
    const char = text[index];
    if (state.mode !== 'none') index = closeMultiline(text, index, state);
    else if (char === '#') return index;
    else if (text.startsWith('"""', index) || text.startsWith("'''", index)) {
      state.mode = char === '"' ? 'multiline-basic' : 'multiline-literal';
      index += 3;
    } else if (char === '"' || char === "'") index = endOfString(text, index);
    else {
      if (char === '[' || char === '{') state.depth += 1;
      else if (char === ']' || char === '}') state.depth -= 1;
      index += 1;
    }
  }
  return -1;
}

function skipSpace(text: string, at: number): number {
  let index = at;
  while (text[index] === ' ' || text[index] === '\t') index += 1;
  return index;
}

/** A quoted key's text: a basic string's escapes decoded where JSON reads them the same. */
function unquote(raw: string): string {
  if (raw.startsWith("'")) return raw.slice(1, -1);
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' ? value : raw.slice(1, -1);
  } catch {
    return raw.slice(1, -1);
  }
}

/** The (dotted) key at `at`: its parts, and where it ends. */
function readKey(text: string, at: number): { path: string[]; end: number } {
  const path: string[] = [];
  let index = skipSpace(text, at);
  for (;;) {
    const char = text[index];
    if (char === '"' || char === "'") {
      const end = endOfString(text, index);
      path.push(unquote(text.slice(index, end)));
      index = end;
    } else {
      const bare = /^[A-Za-z0-9_-]*/.exec(text.slice(index))?.[0] ?? '';
      path.push(bare);
      index += bare.length;
    }
    index = skipSpace(text, index);
    if (text[index] !== '.') return { path, end: index };
    index = skipSpace(text, index + 1);
  }
}

/** The statement starting on line `index`, its end not known yet; null for a blank or comment line. */
function startOf(text: string, index: number): TomlStatement | null {
  const first = skipSpace(text, 0);
  if (first >= text.length || text[first] === '#') return null;
  const base = { start: index, end: index, valueStart: 0, valueEnd: 0, comment: -1 };
  if (text.startsWith('[[', first))
    return { ...base, kind: 'array-table', path: readKey(text, first + 2).path };
  if (text[first] === '[') return { ...base, kind: 'table', path: readKey(text, first + 1).path };
  const key = readKey(text, first);
  return { ...base, kind: 'key', path: key.path, valueStart: skipSpace(text, key.end + 1) };
}

/** Every statement of the file, in order. */
export function tomlStatements(lines: readonly TomlLine[]): TomlStatement[] {
  const state: ScanState = { mode: 'none', depth: 0 };
  const statements: TomlStatement[] = [];
  let open: TomlStatement | null = null;
  lines.forEach(({ text }, index) => {
    const statement = open ?? startOf(text, index);
    if (statement === null) return;
    const comment = scanLine(text, 0, state);
    if (state.mode !== 'none' || state.depth > 0) {
      open = statement;
      return;
    }
    const valueEnd = comment === -1 ? text.length : comment;
    statements.push({
      ...statement,
      end: index,
      comment,
      valueEnd: text.slice(0, valueEnd).trimEnd().length,
    });
    open = null;
    state.depth = 0;
  });
  return statements;
}
