/**
 * The last step of a stream before the client, after the gate: what goes, and when. Its frames are shaped
 * by a `FrameShaper` (tool calls held until whole and checked, a continuation's restated start trimmed).
 * A stream handed on as frames (a translating face) is shaped as the gate parsed it. One handed on as bytes
 * (chat completions): lines it has nothing to do with leave as the upstream sent them, without being parsed
 * once content has gone, and only a chunk whose frames changed is written anew; the lines it must look into
 * (those that may hold a tool call; while words are watched for calls after them, those with a line break in
 * their text; and every line while something is held) are read here, since the gate passed them on
 * unparsed. Until the first content goes out, everything else waits with it, so a stream whose only content
 * proves unusable has sent nothing and can still fail over unseen. Bytes it read go out
 * with their frames (`Shaped.read`), and the usage it found goes back to the gate, so that no later reader
 * parses those lines again.
 */
import { Buffer } from 'node:buffer';
import { SseFrameReader } from '../../gate/sse-frames.js';
import {
  isEmptyPart,
  joinAll,
  partBytes,
  sseLines,
  type FrameBatch,
  type StreamPart,
  type StreamReading,
  type UpstreamFrame,
} from '../../gate/stream-part.js';
import { readUsage, type TokenUsage } from '../../gate/response-gate.js';
import { isRecord } from '../../gate/safe-json.js';
import { FrameShaper, type ShapeProblem } from './frame-shaper.js';
import { beforeContent, FORCED_CALL_LATE } from './forced-call.js';
import type { ShapingRules } from './shaping-rules.js';

/**
 * What goes to the client (null: nothing now), or why the stream must stop (an unusable tool call, an
 * answer that ended having said nothing).
 */
export interface Shaped {
  out: StreamPart | null;
  /** Of `out` as bytes: the frames already read from its first `read.bytes` bytes (null: none were). */
  read: FrameBatch | null;
  problem: ShapeProblem | null;
}

/** In `"tool_calls"` and `"function_call"`: one byte search finds both (and, rarely, text that says it). */
const CALL_KEY = Buffer.from('_call');
/** A line break in a JSON string, as upstreams write it. */
const LINE_BREAK = Buffer.from('\\n');
const NONE: Shaped = { out: null, read: null, problem: null };
const NO_BYTES = Buffer.alloc(0);

/** Index just past the last line end of `bytes` (0 when there is none). */
function lineEnd(bytes: Uint8Array): number {
  for (let i = bytes.byteLength - 1; i >= 0; i -= 1) if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  return 0;
}

/**
 * True when `bytes` may hold a tool call, or (`lines`: words are watched for calls after them) a line break
 * in the text: cheap searches, where a false hit only costs a parse.
 */
function bytesMatter(bytes: Uint8Array, lines: boolean): boolean {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.indexOf(CALL_KEY) !== -1 || (lines && buf.indexOf(LINE_BREAK) !== -1);
}

/** The same of parsed frames: a first choice carrying a tool call piece, or (`lines`) text with a line break. */
function framesMatter(frames: readonly UpstreamFrame[], lines: boolean): boolean {
  for (const frame of frames) {
    if (frame === '[DONE]' || !Array.isArray(frame.choices)) continue;
    const choice: unknown = frame.choices[0];
    const delta = isRecord(choice) && isRecord(choice.delta) ? choice.delta : null;
    if (delta === null) continue;
    if (delta.tool_calls !== undefined || delta.function_call !== undefined) return true;
    if (lines && typeof delta.content === 'string' && delta.content.includes('\n')) return true;
  }
  return false;
}

const NO_FRAMES: FrameBatch = { frames: [], bytes: 0 };
const FORCED_LATE: Shaped = {
  out: null,
  read: null,
  problem: { kind: 'tool_choice_ignored', detail: FORCED_CALL_LATE },
};

/** One attempt's stream on its way to the client. */
export class StreamShaper {
  readonly #reader = new SseFrameReader();
  readonly #frames: FrameShaper;
  readonly #checksTools: boolean;
  readonly #passThrough: boolean;
  readonly #holdLimit: number;
  readonly #reading: StreamReading;
  #settled: boolean;
  /** What waits for the first content, its stream bytes, and (as bytes) the frames read from it. */
  #pending: StreamPart[] = [];
  #pendingBytes = 0;
  #pendingFrames: UpstreamFrame[] = [];
  /** A line without its end yet, in pieces (bytes only). */
  #tail: Uint8Array[] = [];
  /** The frames the gate read from the first bytes handed on, and how many bytes those were. */
  #known: FrameBatch | null = null;
  /** The latest usage in the lines parsed here, not yet handed back. */
  #usage: TokenUsage | null = null;

  /** `reading`: how the gate hands the stream on (as the face's encoder reads it); the shaper keeps to it. */
  constructor(rules: ShapingRules, reading: StreamReading) {
    this.#reading = reading;
    this.#frames = new FrameShaper(rules);
    this.#checksTools = rules.tools !== null;
    this.#passThrough = rules.tools === null && rules.continuing === null;
    this.#settled = this.#passThrough;
    this.#holdLimit = rules.holdLimit;
  }

  /**
   * The frames the gate already read from the first bytes it hands on (those held until the commit): they
   * are shaped as they are, and those bytes are not read again.
   */
  readAlready(known: FrameBatch | null): void {
    if (known !== null) this.#known = known;
  }

  /** What the gate let through: whole SSE lines, or the frames it read from them. */
  shape(part: StreamPart): Shaped {
    if (this.#passThrough) return { out: part, read: this.#takeKnown(), problem: null };
    return part instanceof Uint8Array ? this.#bytes(part) : this.#batch(part);
  }

  /** The request forces a tool call and none has begun, though content came: what is held is no answer yet. */
  get awaitingForcedCall(): boolean {
    return !this.#settled && this.#frames.forcedCall === 'missing';
  }

  /**
   * The latest usage in the lines this shaper parsed itself since it was last asked (the gate passed them on
   * unparsed, and need not parse them for it), or null when none of them carried any.
   */
  takeUsage(): TokenUsage | null {
    const usage = this.#usage;
    this.#usage = null;
    return usage;
  }

  /** The upstream's `[DONE]` was read here (and sent, or kept back with a silent answer's ending). */
  get doneRead(): boolean {
    return this.#frames.doneRead;
  }

  /** Tool calls were read from the answer's text. */
  get callsFromText(): boolean {
    return this.#frames.callsFromText;
  }

  /** The answer's ending came and is kept back (it has said nothing yet): `end` decides what it was. */
  get endingHeld(): boolean {
    return this.#frames.endingHeld;
  }

  /** The upstream ended: a last line it left without a line end is shaped like any other. */
  lastLine(): Shaped {
    if (this.#passThrough) return NONE;
    const rest = Buffer.concat(this.#tail);
    this.#tail = [];
    this.#frames.begin();
    this.#reader.read(rest, this.#visitParsed);
    this.#reader.finish(this.#visitParsed);
    return this.#endChunk(this.#reading === 'frames' ? NO_FRAMES : rest);
  }

  /**
   * The answer is over: the held start of a continuation, and held tool calls, go (or fail). Not for a
   * stream cut on the way: what is held then never had its end, and stays unsent.
   */
  end(): Shaped {
    if (this.#passThrough) return NONE;
    this.#frames.begin();
    this.#frames.end();
    return this.#endChunk(this.#reading === 'frames' ? NO_FRAMES : NO_BYTES);
  }

  #bytes(bytes: Uint8Array): Shaped {
    const quiet = this.#settled && !this.#frames.holding && this.#tail.length === 0;
    if (quiet && !(this.#checksTools && bytesMatter(bytes, this.#frames.watchesLines)))
      return { out: bytes, read: this.#takeKnown(), problem: null };
    // A line without its end yet (one longer than the hold buffer, or the stream's last) waits for it.
    const end = lineEnd(bytes);
    if (end === 0) {
      this.#tail.push(Buffer.from(bytes));
      return NONE;
    }
    const whole = end === bytes.byteLength ? bytes : bytes.subarray(0, end);
    const complete = this.#tail.length === 0 ? whole : Buffer.concat([...this.#tail, whole]);
    this.#tail = end === bytes.byteLength ? [] : [Buffer.from(bytes.subarray(end))];
    this.#frames.begin();
    this.#read(complete);
    return this.#endChunk(complete);
  }

  #batch(batch: FrameBatch): Shaped {
    const quiet = this.#settled && !this.#frames.holding;
    if (quiet && !(this.#checksTools && framesMatter(batch.frames, this.#frames.watchesLines)))
      return { out: batch, read: null, problem: null };
    this.#frames.begin();
    for (const frame of batch.frames) this.#visit(frame);
    return this.#endChunk(batch);
  }

  /** Reads whole lines into the frame shaper, after the frames the gate read from their first bytes. */
  #read(bytes: Uint8Array): void {
    const known = this.#takeKnown();
    if (known === null) {
      this.#reader.read(bytes, this.#visitParsed);
      return;
    }
    for (const frame of known.frames) this.#visit(frame);
    if (known.bytes < bytes.byteLength) this.#reader.read(bytes.subarray(known.bytes), this.#visitParsed);
  }

  #takeKnown(): FrameBatch | null {
    const known = this.#known;
    this.#known = null;
    return known;
  }

  readonly #visit = (frame: UpstreamFrame): boolean => {
    if (frame === '[DONE]') this.#frames.done();
    else this.#frames.frame(frame);
    return false;
  };

  /** A frame parsed here: its usage is noted, for the gate to take instead of parsing its line again. */
  readonly #visitParsed = (frame: UpstreamFrame): boolean => {
    if (frame !== '[DONE]') this.#usage = readUsage(frame) ?? this.#usage;
    return this.#visit(frame);
  };

  /**
   * The chunk as it came or as written anew (as bytes, with the frames it holds: every line of it was read);
   * before the first content, kept back with what waits (past the hold limit, see `beforeContent`).
   */
  #endChunk(raw: StreamPart): Shaped {
    const { frames, changed, content, problem } = this.#frames.result();
    if (problem !== null) return { out: null, read: null, problem };
    const shaped = changed ? this.#rewritten(raw, frames) : raw;
    if (!isEmptyPart(shaped)) {
      this.#pending.push(shaped);
      this.#pendingBytes += partBytes(shaped);
      if (shaped instanceof Uint8Array) for (const frame of frames) this.#pendingFrames.push(frame);
    }
    if (!this.#settled && !content) {
      const step = beforeContent(this.#pendingBytes > this.#holdLimit, this.#frames.forcedCall);
      if (step === 'wait') return NONE;
      if (step === 'fail') return FORCED_LATE;
    }
    this.#settled = true;
    const out = joinAll(this.#pending);
    const read = out instanceof Uint8Array ? { frames: this.#pendingFrames, bytes: out.byteLength } : null;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#pendingFrames = [];
    return { out, read, problem: null };
  }

  /** Shaped frames in the form `raw` came in: as frames (from the same stream bytes), or as SSE lines. */
  #rewritten(raw: StreamPart, frames: UpstreamFrame[]): StreamPart {
    if (raw instanceof Uint8Array) return frames.length === 0 ? NO_BYTES : Buffer.from(sseLines(frames));
    return { frames, bytes: raw.bytes };
  }
}
