/**
 * Why a JSON text did not parse, in words that never quote it: the text may be a config holding API keys,
 * and V8's `JSON.parse` message quotes a stretch of it (`Unexpected token ''', "…'gsk_SINGL"... is not
 * valid JSON`). The one describer of JSON errors for files the router reads (its `config.json`, a
 * free-coding-models config, an agent's settings file). Pure.
 */

/** Where in a text something is: 1-based line and column (in UTF-16 code units, as editors count). */
export interface TextPlace {
  line: number;
  column: number;
}

/** The place of a character offset in `text`. */
export function placeOf(text: string, offset: number): TextPlace {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** A cursor over the text being checked. */
interface Scan {
  text: string;
  at: number;
}

const SPACE = /[ \t\n\r]*/y;
/** A string's opening quote and what may follow it inside: escapes, and no bare quote, backslash or control character. */
const STRING_PREFIX = /"(?:[ !#-[\]-\uffff]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** Moves past what `pattern` matches at the cursor; the length matched (0 for no match). */
function take(scan: Scan, pattern: RegExp): number {
  pattern.lastIndex = scan.at;
  const length = pattern.exec(scan.text)?.[0].length ?? 0;
  scan.at += length;
  return length;
}

/** Moves past `char` (after blanks); false, at the character found instead, when it is not there. */
function expect(scan: Scan, char: string): boolean {
  take(scan, SPACE);
  if (scan.text[scan.at] !== char) return false;
  scan.at += 1;
  return true;
}

/** A string from its opening quote; false at the character that ends it wrongly (or the text's end). */
function scanString(scan: Scan): boolean {
  take(scan, STRING_PREFIX);
  if (scan.text[scan.at] !== '"') return false;
  scan.at += 1;
  return true;
}

/** `{…}` or `[…]` from its opening bracket: members (`"key": value` or values) between commas. */
function scanContainer(scan: Scan, close: string, member: (scan: Scan) => boolean): boolean {
  scan.at += 1;
  if (expect(scan, close)) return true;
  do {
    if (!member(scan)) return false;
  } while (expect(scan, ','));
  return expect(scan, close);
}

function scanMember(scan: Scan): boolean {
  take(scan, SPACE);
  if (scan.text[scan.at] !== '"') return false;
  return scanString(scan) && expect(scan, ':') && scanValue(scan);
}

/** `true`, `false` or `null`; a misspelt one stops at its first wrong character. */
function scanLiteral(scan: Scan): boolean {
  if (take(scan, LITERAL) > 0) return true;
  const word = ['true', 'false', 'null'].find((one) => one[0] === scan.text[scan.at]) ?? '';
  for (let index = 0; index < word.length && scan.text[scan.at] === word[index]; index += 1) scan.at += 1;
  return false;
}

function scanValue(scan: Scan): boolean {
  take(scan, SPACE);
  const char = scan.text[scan.at] ?? '';
  if (char === '{') return scanContainer(scan, '}', scanMember);
  if (char === '[') return scanContainer(scan, ']', scanValue);
  if (char === '"') return scanString(scan);
  if (char === '-' || (char >= '0' && char <= '9')) {
    if (take(scan, NUMBER) > 0) return true;
    scan.at += 1;
    return false;
  }
  return scanLiteral(scan);
}

/**
 * The offset of the first character at which `text` stops being JSON (its length when it ends too soon),
 * or null when it is JSON.
 */
export function firstJsonErrorOffset(text: string): number | null {
  const scan: Scan = { text, at: 0 };
  if (!scanValue(scan)) return Math.min(scan.at, text.length);
  take(scan, SPACE);
  return scan.at < text.length ? scan.at : null;
}

/** `JSON.parse`'s message without the stretch of text it quotes (which may hold a key). */
function unquoted(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/,\s*(?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
}

/**
 * Why the text is not JSON in `JSON.parse`'s words, without what names the place (the line and column say
 * it) or any of the text: a letter or digit it names could be the first of a key written without quotes.
 */
function reasonOf(message: string): string {
  const words = message
    .replace(/\s*(?:in JSON )?at position \d+.*$/s, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '')
    .replace(/^Unexpected token '[\p{L}\p{N}_]'$/u, 'Unexpected character')
    .trim();
  return words === '' || words.includes('"') ? 'not valid JSON here' : words;
}

/** Where `text` stops being JSON: the position `JSON.parse` named, else the one found by reading it. */
function errorOffset(message: string, text: string): number {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Math.min(Number(position), text.length);
  if (/end of JSON input/i.test(message)) return text.length;
  return firstJsonErrorOffset(text) ?? text.length;
}

/** The line and column at which `text` stopped being JSON, for the error `JSON.parse(text)` threw. */
export function jsonErrorPlace(error: unknown, text: string): TextPlace {
  return placeOf(text, errorOffset(unquoted(error), text));
}

/**
 * `invalid JSON at line L, column C: <why>` for the error `JSON.parse(text)` threw; never quotes the text.
 */
export function describeJsonError(error: unknown, text: string): string {
  const message = unquoted(error);
  const { line, column } = placeOf(text, errorOffset(message, text));
  return `invalid JSON at line ${line}, column ${column}: ${reasonOf(message)}`;
}
