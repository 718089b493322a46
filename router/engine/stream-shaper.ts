/**
 * The last step of a stream before the client, after the gate: tool calls are held until whole and checked
 * (`ToolCallHold`), and a continuation's restated start is trimmed (`OverlapTrimmer`) and its reasoning
 * dropped once the answer has text. Lines it has nothing to do with leave as the upstream sent them; only a
 * chunk it changed is written anew. Until the first content goes out, everything else waits with it, so a
 * stream whose only content proves unusable has sent nothing and can still fail over unseen.
 */
import { Buffer } from 'node:buffer';
import type { FailoverSettings } from '../config/schema.js';
import { hasUsefulContent } from '../gate/content-rule.js';
import { isRecord } from '../gate/safe-json.js';
import { offeredToolNames } from '../gate/tool-call-rule.js';
import { idStem } from '../faces/answer-collector.js';
import { UpstreamLineReader, type FrameSink } from '../faces/upstream-lines.js';
import { chunkLine, type AnswerSoFar, type ChunkBase } from './answer-so-far.js';
import { OverlapTrimmer } from './overlap-trim.js';
import { ToolCallHold, type HoldStep } from './tool-call-hold.js';

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

const TOOL_KEYS = [Buffer.from('"tool_calls"'), Buffer.from('"function_call"')];
const DONE_LINE = 'data: [DONE]\n\n';
const frameLine = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Index just past the last line end of `bytes` (0 when there is none). */
function lineEnd(bytes: Uint8Array): number {
  for (let i = bytes.byteLength - 1; i >= 0; i -= 1) if (bytes[i] === 0x0a || bytes[i] === 0x0d) return i + 1;
  return 0;
}

/** A delta with any text (whitespace too), reasoning, refusal or tool call in it. */
function carriesContent(delta: Record<string, unknown>): boolean {
  return (
    ['content', 'reasoning_content', 'reasoning', 'refusal'].some((key) => str(delta[key]) !== '') ||
    delta.tool_calls !== undefined ||
    delta.function_call !== undefined
  );
}

function hasToolKey(bytes: Uint8Array): boolean {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return TOOL_KEYS.some((key) => buf.includes(key));
}

/** One attempt's shaping. */
export class StreamShaper implements FrameSink {
  readonly #reader = new UpstreamLineReader();
  readonly #hold: ToolCallHold | null;
  readonly #trim: OverlapTrimmer | null;
  /** The trimmer works on reasoning (the answer so far was only reasoning), else on text. */
  readonly #trimsReasoning: boolean;
  /** A continuation after text: the continuing model's reasoning stays out of the answer. */
  readonly #dropReasoning: boolean;
  readonly #passThrough: boolean;
  readonly #holdLimit: number;
  #base: ChunkBase;
  #settled: boolean;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** A line without its end yet, in pieces. */
  #tail: Uint8Array[] = [];
  #calls = 0;
  // The chunk being shaped: its frames as written anew, and what was seen in it.
  #out: string[] = [];
  #changed = false;
  #content = false;
  #problem: string | null = null;

  constructor(rules: ShapingRules) {
    const { tools, continuing } = rules;
    this.#hold = tools === null ? null : new ToolCallHold(tools, rules.mintId);
    this.#trimsReasoning = continuing !== null && continuing.text === '';
    this.#dropReasoning = continuing !== null && continuing.text !== '';
    this.#trim =
      continuing === null
        ? null
        : new OverlapTrimmer(this.#trimsReasoning ? continuing.reasoning : continuing.text);
    this.#passThrough = tools === null && continuing === null;
    this.#settled = this.#passThrough;
    this.#holdLimit = rules.holdLimit;
    this.#base = continuing?.base ?? { id: 'chatcmpl-fcm', created: 0, model: null };
  }

  /** Whole SSE lines the gate let through. */
  lines(bytes: Uint8Array): Shaped {
    if (this.#passThrough) return { out: bytes, problem: null };
    const quiet = this.#settled && this.#trim === null && !this.#hold?.holding && this.#tail.length === 0;
    if (quiet && !hasToolKey(bytes)) return { out: bytes, problem: null };
    // A line without its end yet (one longer than the hold buffer, or the stream's last) waits for it.
    const end = lineEnd(bytes);
    if (end === 0) {
      this.#tail.push(Buffer.from(bytes));
      return { out: null, problem: null };
    }
    const whole = end === bytes.byteLength ? bytes : bytes.subarray(0, end);
    const complete = this.#tail.length === 0 ? whole : Buffer.concat([...this.#tail, whole]);
    this.#tail = end === bytes.byteLength ? [] : [Buffer.from(bytes.subarray(end))];
    this.#begin();
    this.#reader.read(complete, this);
    return this.#endChunk(complete);
  }

  /** The upstream ended: a last line, the held start of a continuation, and held tool calls go (or fail). */
  end(): Shaped {
    if (this.#passThrough) return { out: null, problem: null };
    const rest = Buffer.concat(this.#tail);
    this.#tail = [];
    this.#begin();
    this.#reader.read(rest, this);
    this.#reader.end(this);
    this.#flushTrim();
    this.#letGoCalls();
    return this.#endChunk(rest);
  }

  frame(value: Record<string, unknown>): void {
    if (this.#problem !== null) return;
    if (typeof value.id === 'string')
      this.#base = { id: value.id, created: value.created, model: value.model };
    const choices = value.choices;
    const choice = Array.isArray(choices) && choices.length === 1 ? (choices[0] as unknown) : null;
    if (!isRecord(choice) || !isRecord(choice.delta)) {
      this.#out.push(frameLine(value));
      return;
    }
    const delta = { ...choice.delta };
    this.#shapeDelta(delta);
    const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
    if (finish !== null) {
      this.#flushTrim();
      this.#letGoCalls();
    }
    this.#content ||= hasUsefulContent(delta) || finish !== null;
    // A continuation's frames that carry nothing (its role frame) are left out; a fresh answer's stay.
    const keep = this.#trim === null ? Object.keys(delta).length > 0 : carriesContent(delta);
    if (keep || finish !== null || value.usage != null)
      this.#out.push(frameLine({ ...value, choices: [{ ...choice, delta }] }));
    else this.#changed = true;
  }

  done(): void {
    if (this.#problem !== null) return;
    this.#flushTrim();
    this.#letGoCalls();
    this.#out.push(DONE_LINE);
    this.#content = true;
  }

  #shapeDelta(delta: Record<string, unknown>): void {
    const reasoningKey = str(delta.reasoning_content) !== '' ? 'reasoning_content' : 'reasoning';
    const reasoning = str(delta[reasoningKey]);
    if (reasoning !== '') {
      if (this.#dropReasoning) this.#remove(delta, reasoningKey);
      else {
        this.#letGoCalls();
        if (this.#trimsReasoning) this.#trimInto(delta, reasoningKey, reasoning);
      }
    }
    const text = str(delta.content);
    if (text !== '') {
      this.#letGoCalls();
      if (this.#trimsReasoning) this.#flushTrim();
      else this.#trimInto(delta, 'content', text);
    }
    if (this.#hold === null) return;
    if (Array.isArray(delta.tool_calls)) {
      this.#flushTrim();
      delta.tool_calls.forEach((call: unknown, position) => this.#holdPiece(call, position, false));
      this.#remove(delta, 'tool_calls');
    }
    if (isRecord(delta.function_call)) {
      this.#flushTrim();
      this.#holdPiece({ index: 0, function: delta.function_call }, 0, true);
      this.#remove(delta, 'function_call');
    }
  }

  #holdPiece(call: unknown, position: number, legacy: boolean): void {
    if (!isRecord(call) || this.#hold === null) return;
    const fn = isRecord(call.function) ? call.function : {};
    const index = typeof call.index === 'number' ? call.index : position;
    const id = str(call.id) || null;
    this.#take(this.#hold.piece(index, id, str(fn.name) || null, str(fn.arguments), legacy));
  }

  #trimInto(delta: Record<string, unknown>, key: string, text: string): void {
    if (this.#trim === null) return;
    const kept = this.#trim.push(text);
    if (kept === text) return;
    this.#changed = true;
    if (kept === '') delete delta[key];
    else delta[key] = kept;
  }

  #remove(delta: Record<string, unknown>, key: string): void {
    delete delta[key];
    this.#changed = true;
  }

  /** The held start of a continuation goes out now (trimmed), ahead of what comes next. */
  #flushTrim(): void {
    const rest = this.#trim?.flush() ?? '';
    if (rest === '') return;
    this.#out.push(chunkLine(this.#base, { [this.#trimsReasoning ? 'reasoning_content' : 'content']: rest }));
    this.#changed = true;
    this.#content = true;
  }

  #letGoCalls(): void {
    if (this.#hold?.holding) this.#take(this.#hold.letGo());
  }

  #take(step: HoldStep): void {
    for (const call of step.calls) {
      const fn = { name: call.name, arguments: call.args };
      const delta = call.legacy
        ? { function_call: fn }
        : { tool_calls: [{ index: this.#calls, id: call.id, type: 'function', function: fn }] };
      this.#calls += 1;
      this.#out.push(chunkLine(this.#base, delta));
      this.#changed = true;
      this.#content = true;
    }
    this.#problem ??= step.problem;
  }

  #begin(): void {
    this.#out = [];
    this.#changed = false;
    this.#content = false;
  }

  /** The chunk as it came or as written anew; before the first content, kept back with what waits. */
  #endChunk(raw: Uint8Array): Shaped {
    if (this.#problem !== null) return { out: null, problem: this.#problem };
    const shaped = this.#changed ? Buffer.from(this.#out.join('')) : raw;
    if (this.#settled) return { out: shaped.byteLength > 0 ? shaped : null, problem: null };
    if (shaped.byteLength > 0) {
      this.#pending.push(shaped);
      this.#pendingBytes += shaped.byteLength;
    }
    if (!this.#content && this.#pendingBytes <= this.#holdLimit) return { out: null, problem: null };
    this.#settled = true;
    const out = this.#pending.length === 1 ? (this.#pending[0] as Uint8Array) : Buffer.concat(this.#pending);
    this.#pending = [];
    return { out: out.byteLength > 0 ? out : null, problem: null };
  }
}
