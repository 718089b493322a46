/**
 * What of an upstream's stream passes the gate, in the form the face's encoder reads it: the upstream's
 * whole lines as they came, or the frames the gate parsed from them; and the helpers that work on either.
 */
import { Buffer } from 'node:buffer';

/** One frame of an upstream's stream: a data event's JSON object, or its closing `[DONE]`. */
export type UpstreamFrame = Record<string, unknown> | '[DONE]';

/** Frames read from the stream, and how many of its bytes they came from (for limits counted in bytes). */
export interface FrameBatch {
  readonly frames: readonly UpstreamFrame[];
  readonly bytes: number;
}

/**
 * What of a stream passed the gate, in the form its reader takes: the upstream's bytes as they came (whole
 * lines), or the frames read from them.
 */
export type StreamPart = Uint8Array | FrameBatch;

/** The stream bytes a part holds or came from. */
export const partBytes = (part: StreamPart): number =>
  part instanceof Uint8Array ? part.byteLength : part.bytes;

/** True when a part carries nothing to hand on. */
export const isEmptyPart = (part: StreamPart): boolean =>
  part instanceof Uint8Array ? part.byteLength === 0 : part.frames.length === 0;

const DONE_LINE = Buffer.from('data:[DONE]');
const DATA = 5;

const isBlank = (byte: number | undefined): boolean =>
  byte === 0x0a || byte === 0x0d || byte === 0x20 || byte === 0x09;

/** True when `bytes[from, from + length)` are those of `DONE_LINE` from `at`. */
function sameBytes(bytes: Uint8Array, from: number, at: number, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (bytes[from + i] !== DONE_LINE[at + i]) return false;
  return true;
}

/** The longest comment line looked past, and how many of them, after a `[DONE]`: keep-alives are short. */
const COMMENT_BYTES = 256;
const COMMENT_LINES = 8;

/**
 * Where the line ending at `end` starts if it is an SSE comment (`:` first) no longer than `COMMENT_BYTES`,
 * else -1. A JSON data line (the usual last line) ends with `}` and is ruled out without a look back.
 */
function commentStart(bytes: Uint8Array, end: number): number {
  if (bytes[end - 1] === 0x7d) return -1;
  const floor = Math.max(0, end - COMMENT_BYTES);
  let start = end;
  while (start > floor && bytes[start - 1] !== 0x0a && bytes[start - 1] !== 0x0d) start -= 1;
  const whole = start === 0 || bytes[start - 1] === 0x0a || bytes[start - 1] === 0x0d;
  return whole && bytes[start] === 0x3a ? start : -1;
}

/** True when the line ending at `end` is `data:`, one optional space, `[DONE]`. */
function isDoneLine(part: Uint8Array, end: number): boolean {
  const value = DONE_LINE.length - DATA;
  let start = end - value;
  if (start < DATA || !sameBytes(part, start, DATA, value)) return false;
  if (part[start - 1] === 0x20) start -= 1;
  start -= DATA;
  if (start < 0 || !sameBytes(part, start, 0, DATA)) return false;
  return start === 0 || part[start - 1] === 0x0a || part[start - 1] === 0x0d;
}

/**
 * True when a part's last line (or frame) is the upstream's `[DONE]`, false when it is another, null when the
 * part is only line ends, blanks and comments. As bytes, a few reads from the end, for a part nobody parses;
 * a few short comment lines after `[DONE]` (keep-alives in the same read) are looked past, as are blank lines.
 */
export function endsWithDone(part: StreamPart): boolean | null {
  if (!(part instanceof Uint8Array)) return part.frames.length === 0 ? null : part.frames.at(-1) === '[DONE]';
  let end = part.byteLength;
  for (let comments = 0; comments <= COMMENT_LINES; comments += 1) {
    while (end > 0 && isBlank(part[end - 1])) end -= 1;
    if (end === 0) return null;
    if (isDoneLine(part, end)) return true;
    end = commentStart(part, end);
    if (end < 0) return false;
  }
  return false;
}

/**
 * How many line ends (up to two, an event's end) the bytes sent so far close with, once `part` follows bytes
 * that closed with `before` of them: `\r\n`, `\n` and `\r` are one each. A few reads from the end.
 */
export function lineEndsAfter(part: Uint8Array, before: number): number {
  let count = 0;
  let at = part.byteLength;
  while (count < 2 && at > 0) {
    const byte = part[at - 1];
    if (byte === 0x0a) at -= part[at - 2] === 0x0d ? 2 : 1;
    else if (byte === 0x0d) at -= 1;
    else return count;
    count += 1;
  }
  return at === 0 ? Math.min(2, count + before) : count;
}

/**
 * True when a chunk that starts a line holds only SSE comments and blank lines (keep-alives, no data). A
 * chunk of data is told at its first byte; only one that starts with a comment is read further.
 */
export function onlyComments(chunk: Uint8Array): boolean {
  const length = chunk.length;
  let at = 0;
  while (at < length) {
    const byte = chunk[at];
    if (byte === 0x0a || byte === 0x0d) at += 1;
    else if (byte !== 0x3a) return false;
    else while (at < length && chunk[at] !== 0x0a && chunk[at] !== 0x0d) at += 1;
  }
  return true;
}

/** Frames as the SSE lines an upstream sends them in. */
export function sseLines(frames: readonly UpstreamFrame[]): string {
  let out = '';
  for (const frame of frames) out += `data: ${frame === '[DONE]' ? frame : JSON.stringify(frame)}\n\n`;
  return out;
}

/**
 * Frames the router writes itself (an ending, a replay), in the form a stream is handed on in: as they are,
 * or as their SSE lines.
 */
export function partOf(frames: readonly UpstreamFrame[], reading: StreamReading): StreamPart {
  return reading === 'frames' ? { frames, bytes: 0 } : Buffer.from(sseLines(frames));
}

/** How a stream is handed on past the gate: as bytes (relayed untouched) or as parsed frames. */
export type StreamReading = 'bytes' | 'frames';

/** Parts of one reading, in order, as one (null for none). */
export function joinAll(parts: readonly StreamPart[]): StreamPart | null {
  if (parts.length <= 1) return parts[0] ?? null;
  if (parts[0] instanceof Uint8Array) return Buffer.concat(parts as Uint8Array[]);
  const batches = parts as FrameBatch[];
  return { frames: batches.flatMap((b) => b.frames), bytes: batches.reduce((sum, b) => sum + b.bytes, 0) };
}
