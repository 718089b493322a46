/**
 * Byte-level helpers of the SSE stream tracker: line ends, `data:` values, and the cheap search for a JSON
 * key (`"error"`, `"usage"`) that lets the post-commit path skip JSON parsing of ordinary content frames.
 */
import { Buffer } from 'node:buffer';
import { isRecord, parseJson } from './safe-json.js';

export const CR = 0x0d;
export const LF = 0x0a;

export function concatOrNull(a: Uint8Array | null, b: Uint8Array | null): Uint8Array | null {
  if (!a) return b;
  if (!b) return a;
  return Buffer.concat([a, b]);
}

export const ERROR_KEY = Buffer.from('"error"');
export const USAGE_KEY = Buffer.from('"usage"');
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
/**
 * A complete line as text: invalid UTF-8 becomes U+FFFD and one leading BOM is dropped, as a fresh
 * `TextDecoder` does for a whole input, without a decoder object per stream.
 */
export function decodeLine(bytes: Uint8Array): string {
  return decodeRange(Buffer.isBuffer(bytes) ? bytes : asBuffer(bytes), 0, bytes.length);
}

/** Bytes `[from, to)` of `buf` as a line's text, as {@link decodeLine} reads them (no view made). */
export function decodeRange(buf: Buffer, from: number, to: number): string {
  const text = buf.toString('utf8', from, to);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
export const isNonNull = (buf: Buffer, at: number): boolean => buf.toString('latin1', at, at + 4) !== 'null';
export const isObject = (buf: Buffer, at: number): boolean => buf[at] === 0x7b;

/** The value of an SSE `data` line (one leading space dropped), or null for any other line. */
export function dataValue(line: string): string | null {
  if (!line.startsWith('data')) return null;
  if (line.length === 4) return '';
  if (line[4] !== ':') return null;
  return line[5] === ' ' ? line.slice(6) : line.slice(5);
}

/** Index just past the last line terminator in `[from, to)`, or `from` when there is none. */
export function lastLineEnd(bytes: Uint8Array, from: number, to: number): number {
  for (let i = to - 1; i >= from; i -= 1) {
    if (bytes[i] === LF || bytes[i] === CR) return i + 1;
  }
  return from;
}

/** Start and end (before its terminator) of the line holding byte `at`, within `[from, to)`. */
export function lineAround(buf: Buffer, at: number, from: number, to: number): [number, number] {
  const start = Math.max(from, buf.lastIndexOf(LF, at) + 1, buf.lastIndexOf(CR, at) + 1);
  let end = at;
  while (end < to && buf[end] !== LF && buf[end] !== CR) end += 1;
  return [start, end];
}

/** Where the value of the JSON key starting at `at` begins, or -1 when no `:` follows the key. */
export function valueAt(buf: Buffer, at: number, to: number): number {
  let i = at;
  while (i < to && (buf[i] === 0x20 || buf[i] === 0x09)) i += 1;
  if (buf[i] !== 0x3a) return -1;
  i += 1;
  while (i < to && (buf[i] === 0x20 || buf[i] === 0x09)) i += 1;
  return i < to ? i : -1;
}

export type Accept = (buf: Buffer, valueAt: number) => boolean;

/**
 * Offsets of `"key":` occurrences in `[from, to)` whose value `accept` likes. Inside a JSON string the quotes
 * are escaped (`\"error\"`), so a completion that merely talks about errors does not match.
 */
export function* keys(buf: Buffer, key: Buffer, from: number, to: number, accept: Accept): Generator<number> {
  for (let at = buf.indexOf(key, from); at >= 0 && at + key.length <= to; at = buf.indexOf(key, at + 1)) {
    const value = valueAt(buf, at + key.length, to);
    if (value >= 0 && accept(buf, value)) yield at;
  }
}

export function hasKey(buf: Buffer, key: Buffer, from: number, to: number, accept: Accept): boolean {
  return !keys(buf, key, from, to, accept).next().done;
}

export function lastKey(buf: Buffer, key: Buffer, from: number, to: number, accept: Accept): number {
  let last = -1;
  for (const at of keys(buf, key, from, to, accept)) last = at;
  return last;
}

/**
 * The slow path after a possible error key: reads the lines of `[from, to)` and finds the first data frame
 * with a non-null top-level `error`, as one JSON line or as the data lines of one event joined by `\n`.
 */
export function findErrorFrame(
  buf: Buffer,
  from: number,
  to: number,
): { lineStart: number; value: unknown } | null {
  let group: { start: number; values: string[] } | null = null;
  const errorOf = (json: string): unknown => {
    const parsed = parseJson(json);
    return parsed.ok && isRecord(parsed.value) ? parsed.value.error : undefined;
  };
  const closeGroup = (): { lineStart: number; value: unknown } | null => {
    const done = group;
    group = null;
    const value = done && done.values.length > 1 ? errorOf(done.values.join('\n')) : null;
    return done && value != null ? { lineStart: done.start, value } : null;
  };
  for (let i = from; i < to;) {
    const lineStart = i;
    let lineEnd = i;
    while (lineEnd < to && buf[lineEnd] !== LF && buf[lineEnd] !== CR) lineEnd += 1;
    i = buf[lineEnd] === CR && buf[lineEnd + 1] === LF && lineEnd + 1 < to ? lineEnd + 2 : lineEnd + 1;
    const text = decodeLine(buf.subarray(lineStart, lineEnd));
    const value = text === '' ? null : dataValue(text);
    if (value === null) {
      const done = text === '' ? closeGroup() : null;
      if (done) return done;
      continue;
    }
    const alone = value.trimStart().startsWith('{') ? parseJson(value) : null;
    if (alone?.ok && isRecord(alone.value)) {
      // One JSON per line: this line is a frame of its own and ends any event before it.
      const done = closeGroup();
      if (done) return done;
      if (alone.value.error != null) return { lineStart, value: alone.value.error };
      continue;
    }
    group ??= { start: lineStart, values: [] };
    group.values.push(value);
  }
  return closeGroup();
}
