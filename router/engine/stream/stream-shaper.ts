/**
 * The last step of a stream before the client, after the gate: which bytes go, and when. Its frames are
 * shaped by a `FrameShaper` (tool calls held until whole and checked, a continuation's restated start
 * trimmed); lines it has nothing to do with leave as the upstream sent them, without being parsed once
 * content has gone, and only a chunk whose frames changed is written anew. Until the first content goes
 * out, everything else waits with it, so a stream whose only content proves unusable has sent nothing and
 * can still fail over unseen.
 */
import { Buffer } from 'node:buffer';
import type { FailoverSettings } from '../../config/schema.js';
import { offeredToolNames } from '../../gate/tool-call-rule.js';
import { idStem } from '../../faces/answer-collector.js';
import { UpstreamLineReader } from '../../faces/upstream-lines.js';
import type { AnswerSoFar } from './answer-so-far.js';
import { FrameShaper } from './frame-shaper.js';

/** How one attempt's stream is shaped. */
export interface ShapingRules {
  /** The tool names the request offers; null when tool calls pass as they come (not checked). */
  tools: ReadonlySet<string> | null;
  /** What the client already has when this attempt continues an answer; null for a fresh answer. */
  continuing: AnswerSoFar | null;
  /** Bytes kept back at most while no content has gone out (the hold buffer's size). */
  holdLimit: number;
  /** An id for a tool call that came without one. */
  mintId: () => string;
}

/**
 * A request's shaping before any answer: with `contentValidation: strict`, its tool calls are checked
 * against the tools it offers. A request for several choices is passed through as it comes.
 */
export function shapingRules(
  body: Readonly<Record<string, unknown>>,
  failover: Pick<FailoverSettings, 'contentValidation' | 'holdBufferBytes'>,
  requestId: string,
): ShapingRules {
  const oneChoice = !(typeof body.n === 'number' && body.n > 1);
  const stem = idStem(requestId);
  let minted = 0;
  return {
    tools: failover.contentValidation === 'strict' && oneChoice ? offeredToolNames(body) : null,
    continuing: null,
    holdLimit: failover.holdBufferBytes,
    mintId: () => `call_fcm_${stem}_${(minted += 1)}`,
  };
}

/** Bytes for the client (null: none now), or why the stream must stop (an unusable tool call). */
export interface Shaped {
  out: Uint8Array | null;
  problem: string | null;
}

/** In `"tool_calls"` and `"function_call"`: one byte search finds both (and, rarely, text that says it). */
const CALL_KEY = Buffer.from('_call');

/** Index just past the last line end of `bytes` (0 when there is none). */
function lineEnd(bytes: Uint8Array): number {
  for (let i = bytes.byteLength - 1; i >= 0; i -= 1) if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  return 0;
}

/** True when `bytes` may hold a tool call (a cheap search: a false hit only costs a parse). */
function mayHoldToolCall(bytes: Uint8Array): boolean {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.indexOf(CALL_KEY) !== -1;
}

/** One attempt's stream on its way to the client. */
export class StreamShaper {
  readonly #reader = new UpstreamLineReader();
  readonly #frames: FrameShaper;
  readonly #checksTools: boolean;
  readonly #passThrough: boolean;
  readonly #holdLimit: number;
  #settled: boolean;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** A line without its end yet, in pieces. */
  #tail: Uint8Array[] = [];

  constructor(rules: ShapingRules) {
    this.#frames = new FrameShaper(rules);
    this.#checksTools = rules.tools !== null;
    this.#passThrough = rules.tools === null && rules.continuing === null;
    this.#settled = this.#passThrough;
    this.#holdLimit = rules.holdLimit;
  }

  /** Whole SSE lines the gate let through. */
  lines(bytes: Uint8Array): Shaped {
    if (this.#passThrough) return { out: bytes, problem: null };
    const quiet = this.#settled && !this.#frames.holding && this.#tail.length === 0;
    if (quiet && !(this.#checksTools && mayHoldToolCall(bytes))) return { out: bytes, problem: null };
    // A line without its end yet (one longer than the hold buffer, or the stream's last) waits for it.
    const end = lineEnd(bytes);
    if (end === 0) {
      this.#tail.push(Buffer.from(bytes));
      return { out: null, problem: null };
    }
    const whole = end === bytes.byteLength ? bytes : bytes.subarray(0, end);
    const complete = this.#tail.length === 0 ? whole : Buffer.concat([...this.#tail, whole]);
    this.#tail = end === bytes.byteLength ? [] : [Buffer.from(bytes.subarray(end))];
    this.#frames.begin();
    this.#reader.read(complete, this.#frames);
    return this.#endChunk(complete);
  }

  /** The upstream ended: a last line, the held start of a continuation, and held tool calls go (or fail). */
  end(): Shaped {
    if (this.#passThrough) return { out: null, problem: null };
    const rest = Buffer.concat(this.#tail);
    this.#tail = [];
    this.#frames.begin();
    this.#reader.read(rest, this.#frames);
    this.#reader.end(this.#frames);
    this.#frames.end();
    return this.#endChunk(rest);
  }

  /** The chunk as it came or as written anew; before the first content, kept back with what waits. */
  #endChunk(raw: Uint8Array): Shaped {
    const { lines, changed, content, problem } = this.#frames.result();
    if (problem !== null) return { out: null, problem };
    const shaped = changed ? Buffer.from(lines.join('')) : raw;
    if (this.#settled) return { out: shaped.byteLength > 0 ? shaped : null, problem: null };
    if (shaped.byteLength > 0) {
      this.#pending.push(shaped);
      this.#pendingBytes += shaped.byteLength;
    }
    if (!content && this.#pendingBytes <= this.#holdLimit) return { out: null, problem: null };
    this.#settled = true;
    const out = this.#pending.length === 1 ? (this.#pending[0] as Uint8Array) : Buffer.concat(this.#pending);
    this.#pending = [];
    return { out: out.byteLength > 0 ? out : null, problem: null };
  }
}
