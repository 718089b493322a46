/**
 * A stream handed on as the upstream's bytes, for a face that relays them (chat completions): piped through
 * as they came, cut only at line ends, with a cheap byte search for an upstream error frame (which the router
 * replaces with its own) and for usage (parsed only when asked for). Nothing is parsed on the way.
 */
import { Buffer } from 'node:buffer';
import { readUsage, describeUpstreamError, type TokenUsage } from './response-gate.js';
import { isRecord, parseJson } from './safe-json.js';
import {
  CR,
  ERROR_KEY,
  LF,
  USAGE_KEY,
  asBuffer,
  dataValue,
  findErrorFrame,
  hasKey,
  isNonNull,
  isObject,
  lastKey,
  lastLineEnd,
  lineAround,
} from './sse-bytes.js';
import type { SseFrameReader } from './sse-frames.js';
import type { FrameBatch, UpstreamFrame } from './stream-part.js';
import { NOTHING, type PassResult, type StreamPass } from './stream-pass.js';

const nonEmpty = (bytes: Uint8Array): Uint8Array | null => (bytes.length > 0 ? bytes : null);

/**
 * A partial line outlives the call that brought it, and a chunk's memory is its caller's: it is kept as a
 * copy (rare: chunks mostly end at a line end).
 */
const copy = (bytes: Uint8Array): Uint8Array => Uint8Array.prototype.slice.call(bytes);

/** Index of the chunk's last CR or LF, or -1. */
function lastLineTerminator(chunk: Uint8Array): number {
  const lastByte = chunk[chunk.length - 1];
  // Most chunks end a frame: no search at all (each native search costs more than the bytes it reads).
  if (lastByte === LF || lastByte === CR) return chunk.length - 1;
  // LF ends almost every line; a lone CR after the last LF is rare, so the full CR search runs only then.
  const lastLf = chunk.lastIndexOf(LF);
  return chunk.indexOf(CR, lastLf + 1) === -1 ? lastLf : chunk.lastIndexOf(CR);
}

/** True unless `line` (one line, no line end) is a data line whose value is neither JSON nor `[DONE]`. */
function isWholeLine(line: Uint8Array): boolean {
  const value = dataValue(asBuffer(line).toString('utf8'));
  return value === null || value === '[DONE]' || parseJson(value).ok;
}

/** Blank lines, each ending one SSE event (a line end, then an empty line), in any of the line ends. */
const EVENT_ENDS = ['\n\n', '\r\r', '\r\n\r\n'].map((end) => Buffer.from(end));

/**
 * Where the event holding byte `at` begins, not before `from`: just past the last blank line before it. No
 * event before it holds an error key, so the slow path starts there and parses no line it need not.
 */
function eventStart(buf: Buffer, at: number, from: number): number {
  let start = from;
  for (const end of EVENT_ENDS) {
    const found = buf.lastIndexOf(end, at - end.length);
    if (found >= from) start = Math.max(start, found + end.length);
  }
  return start;
}

/** Relays the bytes after the commit; the tracker's reader says which held lines it judged already. */
export class BytePass implements StreamPass {
  readonly #reader: SseFrameReader;
  readonly #holdLimit: number;
  /** The partial last line, kept until its terminator arrives. */
  #tail: Uint8Array[] = [];
  #tailLength = 0;
  #usageLine: string | null = null;
  #usage: TokenUsage | null = null;
  #stopped = false;
  /** The frames read before the commit, until it; then, until taken, with the bytes they came from. */
  #held: UpstreamFrame[] = [];
  #read: FrameBatch | null = null;

  /** `holdLimit`: a partial line longer than this is no SSE frame to judge, and goes on as it is. */
  constructor(reader: SseFrameReader, holdLimit: number) {
    this.#reader = reader;
    this.#holdLimit = holdLimit;
  }

  heldFrame(frame: UpstreamFrame): void {
    // The held bytes go on as they are; the frames read from them go to whoever must look into those bytes.
    this.#held.push(frame);
  }

  commit(held: Buffer): PassResult {
    const complete = lastLineEnd(held, 0, held.length);
    const readTo = this.#reader.unreadFrom;
    // Frames of whole forwarded lines only: an unterminated last line read at the end goes on later.
    this.#read = readTo <= complete ? { frames: this.#held, bytes: readTo } : null;
    this.#held = [];
    // Lines the reader judged before the commit need no second look.
    const result = this.#passRegion(held, Math.min(this.#reader.unreadFrom, complete), complete);
    if (!this.#stopped && complete < held.length) this.keep(copy(held.subarray(complete)));
    return result;
  }

  pass(chunk: Uint8Array): PassResult {
    if (this.#stopped) return NOTHING;
    const lastTerminator = lastLineTerminator(chunk);
    if (lastTerminator < 0) {
      this.keep(chunk);
      if (this.#tailLength <= this.#holdLimit) return NOTHING;
      // A line this long is no SSE frame we can judge; forward it as it is.
      return { forward: this.#takeTail(), failure: null };
    }
    // Usually the chunk ends a line and nothing waits before it: then the region is the chunk itself.
    const complete = lastTerminator + 1 === chunk.length ? chunk : chunk.subarray(0, lastTerminator + 1);
    const region = this.#tailLength > 0 ? Buffer.concat([...this.#tail, complete]) : complete;
    this.#tail = [];
    this.#tailLength = 0;
    if (lastTerminator + 1 < chunk.length) this.keep(copy(chunk.subarray(lastTerminator + 1)));
    return this.#passRegion(region, 0, region.length);
  }

  keep(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailLength += chunk.length;
  }

  end(): PassResult {
    if (this.#stopped) return NOTHING;
    const tail = this.#takeTail();
    // A data line cut inside its JSON is one the client's parser would throw on, and whatever the router
    // writes next would be glued to it: it stays here. A whole last line without its line end goes on.
    const last = tail !== null && isWholeLine(tail) ? tail : new Uint8Array(0);
    return this.#passRegion(last, 0, last.length);
  }

  pendingBytes(): number {
    return this.#tailLength;
  }

  usageRead(usage: TokenUsage): void {
    // The usage line found in those lines was read by the shaper: it is not parsed again here.
    this.#usageLine = null;
    this.#usage = usage;
  }

  takeReadFrames(): FrameBatch | null {
    const read = this.#read;
    this.#read = null;
    return read;
  }

  usage(): TokenUsage | null {
    const line = this.#usageLine;
    this.#usageLine = null;
    const value = line === null ? null : dataValue(line);
    const parsed = value === null ? null : parseJson(value);
    if (parsed?.ok && isRecord(parsed.value)) this.#usage = readUsage(parsed.value) ?? this.#usage;
    return this.#usage;
  }

  /** Forwards `bytes[0, end)`, of which `[checkFrom, end)` is checked for error frames and usage. */
  #passRegion(bytes: Uint8Array, checkFrom: number, end: number): PassResult {
    const whole = end === bytes.length ? bytes : bytes.subarray(0, end);
    // At commit the held lines were usually all examined already: nothing left to search.
    if (checkFrom >= end) return { forward: nonEmpty(whole), failure: null };
    const buf = Buffer.isBuffer(bytes) ? bytes : asBuffer(bytes);
    // Ordinary content frames hold neither key: one native byte search each, and nothing else.
    const errorAt = buf.indexOf(ERROR_KEY, checkFrom);
    const error =
      errorAt >= 0 && errorAt < end && hasKey(buf, ERROR_KEY, errorAt, end, isNonNull)
        ? findErrorFrame(buf, eventStart(buf, errorAt, checkFrom), end)
        : null;
    const limit = error ? error.lineStart : end;
    const usageSeen = buf.lastIndexOf(USAGE_KEY, limit - 1);
    const usageAt = usageSeen >= checkFrom ? lastKey(buf, USAGE_KEY, checkFrom, limit, isObject) : -1;
    // Parsed only when asked for: some providers repeat usage in every frame.
    if (usageAt >= 0)
      this.#usageLine = buf.subarray(...lineAround(buf, usageAt, checkFrom, limit)).toString('utf8');
    if (!error) return { forward: nonEmpty(whole), failure: null };
    this.#stopped = true;
    this.#tail = [];
    this.#tailLength = 0;
    const { errorCode, detail } = describeUpstreamError(error.value);
    return {
      forward: nonEmpty(bytes.subarray(0, limit)),
      failure: { kind: 'mid_stream_error', errorCode, detail },
    };
  }

  #takeTail(): Uint8Array | null {
    const bytes = this.#tail.length === 1 ? this.#tail[0] : Buffer.concat(this.#tail);
    this.#tail = [];
    this.#tailLength = 0;
    return bytes && bytes.length > 0 ? bytes : null;
  }
}
