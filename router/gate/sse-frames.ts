/**
 * The one reading of an upstream's chat-completions SSE: lines split on bytes (CR, LF, CRLF), each event's
 * data lines joined, each data value's JSON parsed once, and the frames handed on in order. The stream
 * tracker reads a stream's frames with it to judge them, and for a translating face keeps reading after the
 * commit, so the face's encoder gets the very objects the gate judged.
 *
 * Lines are split on bytes: a line terminator never occurs inside a UTF-8 sequence, so each complete line
 * decodes on its own and a character split across chunks is whole by then.
 */
import { Buffer } from 'node:buffer';
import { isRecord, parseJson } from './safe-json.js';
import { CR, LF, asBuffer, dataValue, decodeLine, decodeRange } from './sse-bytes.js';
import type { UpstreamFrame } from './stream-part.js';

/** Called with each frame in order; `true` stops the reading right after it. */
export type FrameVisit = (frame: UpstreamFrame) => boolean;

/** How a `read` ended: every byte taken, stopped by the visitor, or a line longer than it keeps. */
export type ReadEnd = 'read' | 'stopped' | 'line_too_long';

/** The longest partial line kept whole (a whole JSON answer's limit): past it the stream is no SSE. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

const orEnd = (at: number, end: number): number => (at < 0 ? end : at);
const NO_BYTES = Buffer.alloc(0);

/**
 * Where a visitor stopped: at the frame of the line just read (`line`), or at the frame of an event that
 * line closed (`before`: the line itself is still unread and is read again on the next `read`).
 */
type Stop = 'line' | 'before' | null;

/** One per stream. Offsets are stream offsets: the count of bytes before, over every `read`. */
export class SseFrameReader {
  #unparsable = 0;
  /** The pieces of the partial line, begun in an earlier chunk. */
  #pieces: Uint8Array[] = [];
  #piecesLength = 0;
  #afterCR = false;
  /** Stream offset of the line not yet read whole. */
  #lineStart = 0;
  /** Stream offset past the bytes taken: where the next `read` goes on. */
  #readTo = 0;
  /** The data lines of the event under way. */
  #eventData: string[] = [];

  /** Data events whose JSON could not be parsed, or was no object. */
  get unparsable(): number {
    return this.#unparsable;
  }

  /** Stream offset of the first byte not yet read as part of a whole line. */
  get unreadFrom(): number {
    return this.#lineStart;
  }

  /** Stream offset past the bytes taken (a kept partial line among them): where the next `read` goes on. */
  get readTo(): number {
    return this.#readTo;
  }

  /** Bytes of the partial line kept for the next `read`. */
  get pendingBytes(): number {
    return this.#piecesLength;
  }

  /**
   * Reads the whole lines of `chunk` (after any partial line kept from before) and keeps its partial last
   * line. After a stop, the bytes after the stopping frame are not taken: `readTo` says where they start.
   */
  read(chunk: Uint8Array, visit: FrameVisit): ReadEnd {
    const base = this.#readTo;
    let lineStart = 0;
    if (this.#afterCR) {
      this.#afterCR = false;
      // The LF of a CRLF split across chunks belongs to the line already ended.
      if (chunk[0] === LF) {
        lineStart = 1;
        this.#lineStart = base + 1;
      }
    }
    const buf = Buffer.isBuffer(chunk) ? chunk : asBuffer(chunk);
    const length = chunk.length;
    // The next CR is searched for only once the one found is behind: most streams have none.
    let nextCr = -1;
    for (let i = lineStart; i < length; i = lineStart) {
      if (nextCr < i) nextCr = orEnd(buf.indexOf(CR, i), length);
      i = Math.min(orEnd(buf.indexOf(LF, i), length), nextCr);
      if (i === length) break;
      // A line inside one chunk is decoded from it; only a line begun in an earlier chunk is joined first.
      const line = this.#text(buf, lineStart, i);
      if (i === nextCr && i + 1 < length && chunk[i + 1] === LF) i += 1;
      else if (i === nextCr && i + 1 === length) this.#afterCR = true;
      const startedAt = this.#lineStart;
      lineStart = i + 1;
      this.#lineStart = base + lineStart;
      const stop = this.#line(line, visit);
      if (stop !== null) return this.#stopped(stop, startedAt);
    }
    this.#readTo = base + chunk.length;
    if (lineStart === chunk.length) return 'read';
    // The partial line outlives this call, and the chunk's memory is its caller's: kept as a copy (rare:
    // chunks mostly end at a line end).
    this.#pieces.push(Uint8Array.prototype.slice.call(chunk, lineStart));
    this.#piecesLength += chunk.length - lineStart;
    return this.#piecesLength > MAX_LINE_BYTES ? 'line_too_long' : 'read';
  }

  /** The stream ended: its unterminated last line and the event under way are read now. */
  finish(visit: FrameVisit): 'read' | 'stopped' {
    if (this.#piecesLength > 0) {
      const line = this.#text(NO_BYTES, 0, 0);
      const startedAt = this.#lineStart;
      this.#lineStart = this.#readTo;
      const stop = this.#line(line, visit);
      if (stop !== null) return this.#stopped(stop, startedAt);
    }
    return this.#flush(visit) ? 'stopped' : 'read';
  }

  /** The text of the kept partial line with `buf[from, to)` after it. */
  #text(buf: Buffer, from: number, to: number): string {
    if (this.#pieces.length === 0) return decodeRange(buf, from, to);
    const line = Buffer.concat([...this.#pieces, buf.subarray(from, to)]);
    this.#pieces = [];
    this.#piecesLength = 0;
    return decodeLine(line);
  }

  #stopped(stop: 'line' | 'before', startedAt: number): 'stopped' {
    if (stop === 'before') {
      // The line that closed the event is read again, terminator and all.
      this.#afterCR = false;
      this.#lineStart = startedAt;
    }
    this.#readTo = this.#lineStart;
    return 'stopped';
  }

  /** One complete line. */
  #line(text: string, visit: FrameVisit): Stop {
    if (text === '') return this.#flush(visit) ? 'line' : null;
    const value = dataValue(text);
    if (value === null) return null;
    const trimmed = value.trim();
    if (trimmed === '[DONE]') {
      if (this.#flush(visit)) return 'before';
      return visit('[DONE]') ? 'line' : null;
    }
    if (trimmed.charCodeAt(0) === 0x7b) {
      // Some providers send one JSON per data line with no blank lines between events.
      const alone = parseJson(trimmed);
      if (alone.ok && isRecord(alone.value)) {
        if (this.#flush(visit)) return 'before';
        return visit(alone.value) ? 'line' : null;
      }
    }
    this.#eventData.push(value);
    return null;
  }

  /** Ends the event under way: its data lines joined with `\n` form one JSON frame. True when `visit` stops. */
  #flush(visit: FrameVisit): boolean {
    const lines = this.#eventData;
    if (lines.length === 0) return false;
    this.#eventData = [];
    const data = lines.length === 1 ? (lines[0] as string) : lines.join('\n');
    if (data.trim() === '') return false;
    const parsed = parseJson(data);
    if (!parsed.ok || !isRecord(parsed.value)) {
      this.#unparsable += 1;
      return false;
    }
    return visit(parsed.value);
  }
}
