/**
 * Some providers answer an SSE stream whatever the request's `stream` says. A request that asked for one
 * JSON answer reads that stream whole and folds it into the chat completion it stands for, which the response
 * gate then judges as any JSON answer (the mirror of `json-as-sse.ts`). The stream's own rules come first,
 * as the stream path applies them: an error frame, no content, or no ending fail it. Pure.
 */
import { Buffer } from 'node:buffer';
import { argumentsText, contentText, frameHasUsefulContent } from '../gate/answer-rules.js';
import type { FailureInput } from '../gate/failure-classifier.js';
import { isRecord } from '../gate/safe-json.js';
import { SseFrameReader } from '../gate/sse-frames.js';
import type { UpstreamFrame } from '../gate/stream-part.js';
import { frameFailure } from '../gate/stream-pass.js';

/** A stream folded into one completion, or why it cannot stand for one. */
export type FoldedStream =
  { ok: true; completion: Record<string, unknown> } | { ok: false; failure: FailureInput };

interface CallSoFar {
  id: string | null;
  name: string;
  arguments: string;
  /** Fields a call carries besides these (Google's thought signature in `extra_content`). */
  extra: Record<string, unknown> | null;
}

interface ChoiceSoFar {
  role: string;
  content: string;
  reasoning: string;
  refusal: string;
  calls: Map<number, CallSoFar>;
  functionCall: { name: string; arguments: string } | null;
  finishReason: string | null;
  /** The stop string vLLM (`stop_reason`) or SGLang (`matched_stop`) names, as the choice carries it. */
  stop: Record<string, unknown>;
}

const CALL_FIELDS = new Set(['index', 'id', 'type', 'function']);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The usage a frame carries (or Groq's `x_groq.usage`), or null. */
function usageOf(frame: Record<string, unknown>): Record<string, unknown> | null {
  if (isRecord(frame.usage)) return frame.usage;
  return isRecord(frame.x_groq) && isRecord(frame.x_groq.usage) ? frame.x_groq.usage : null;
}

/** Fields of a tool call's piece other than the ones gathered, or null for none. */
function extraOf(piece: Record<string, unknown>): Record<string, unknown> | null {
  let extra: Record<string, unknown> | null = null;
  for (const key of Object.keys(piece)) if (!CALL_FIELDS.has(key)) (extra ??= {})[key] = piece[key];
  return extra;
}

function newChoice(): ChoiceSoFar {
  const calls = new Map<number, CallSoFar>();
  return {
    role: 'assistant',
    content: '',
    reasoning: '',
    refusal: '',
    calls,
    functionCall: null,
    finishReason: null,
    stop: {},
  };
}

/** One stream's frames gathered as they are read: each choice's deltas by its index, tool calls by theirs. */
class Fold {
  readonly choices = new Map<number, ChoiceSoFar>();
  readonly head: Record<string, unknown> = {};
  usage: Record<string, unknown> | null = null;
  useful = false;
  done = false;
  finished = false;
  failure: FailureInput | null = null;

  /** Takes one frame; true (stop reading) at `[DONE]` or an error frame. */
  readonly visit = (frame: UpstreamFrame): boolean => {
    if (frame === '[DONE]') return (this.done = true);
    const error = frameFailure(frame);
    if (error !== null) {
      const { errorCode, detail } = error;
      this.failure = { type: 'content', kind: 'error_payload', errorCode, detail };
      return true;
    }
    for (const key of ['id', 'created', 'model', 'system_fingerprint'])
      if (this.head[key] === undefined && frame[key] != null) this.head[key] = frame[key];
    this.useful ||= frameHasUsefulContent(frame);
    this.usage = usageOf(frame) ?? this.usage;
    const { choices } = frame;
    if (Array.isArray(choices))
      choices.forEach((choice: unknown, position) => {
        if (isRecord(choice))
          this.#choice(choice, typeof choice.index === 'number' ? choice.index : position);
      });
    return false;
  };

  #choice(choice: Record<string, unknown>, index: number): void {
    let into = this.choices.get(index);
    if (into === undefined) {
      into = newChoice();
      this.choices.set(index, into);
    }
    if (isRecord(choice.delta)) addDelta(into, choice.delta);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      into.finishReason = choice.finish_reason;
      this.finished = true;
    }
    for (const key of ['stop_reason', 'matched_stop']) if (choice[key] != null) into.stop[key] = choice[key];
  }
}

/** One delta's pieces added to its choice: text and reasoning appended, tool calls gathered by index. */
function addDelta(into: ChoiceSoFar, delta: Record<string, unknown>): void {
  if (typeof delta.role === 'string' && delta.role !== '') into.role = delta.role;
  // Some providers (Mistral's) stream text as content parts.
  into.content += contentText(delta.content);
  into.reasoning += str(delta.reasoning_content) || str(delta.reasoning);
  into.refusal += str(delta.refusal);
  if (Array.isArray(delta.tool_calls))
    delta.tool_calls.forEach((piece: unknown, position) => {
      if (isRecord(piece))
        addCallPiece(into.calls, piece, typeof piece.index === 'number' ? piece.index : position);
    });
  if (isRecord(delta.function_call)) {
    const fn = delta.function_call;
    into.functionCall ??= { name: '', arguments: '' };
    into.functionCall.name ||= str(fn.name);
    into.functionCall.arguments += argumentsText(fn.arguments);
  }
}

/** A piece of tool call `index`: its id and name come with its first piece, its arguments in any. */
function addCallPiece(calls: Map<number, CallSoFar>, piece: Record<string, unknown>, index: number): void {
  const fn = isRecord(piece.function) ? piece.function : {};
  let call = calls.get(index);
  if (call === undefined) {
    call = { id: null, name: '', arguments: '', extra: null };
    calls.set(index, call);
  }
  if (call.id === null && str(piece.id) !== '') call.id = str(piece.id);
  call.name ||= str(fn.name);
  call.arguments += argumentsText(fn.arguments);
  call.extra ??= extraOf(piece);
}

/** A gathered choice as a completion's choice: its message, finish reason and named stop string. */
function choiceOf(index: number, soFar: ChoiceSoFar): Record<string, unknown> {
  const message: Record<string, unknown> = { role: soFar.role, content: soFar.content || null };
  if (soFar.reasoning !== '') message.reasoning_content = soFar.reasoning;
  if (soFar.refusal !== '') message.refusal = soFar.refusal;
  if (soFar.calls.size > 0)
    message.tool_calls = [...soFar.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        ...call.extra,
        ...(call.id === null ? {} : { id: call.id }),
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
  if (soFar.functionCall !== null) message.function_call = soFar.functionCall;
  return { index, message, finish_reason: soFar.finishReason, ...soFar.stop };
}

/**
 * Reads a whole SSE body (with the gate's frame reader) and folds it into one chat completion: `id`, `model`
 * and `created` from its first frames that name them (`created` from `nowMs`, the router's clock, when none
 * does), one choice per index whose message gathers the deltas' role, text, reasoning (as
 * `reasoning_content`), refusal and tool calls (by their index, arguments joined), its finish reason, and
 * the last usage the stream sent. Fails as the stream path would before any byte reached a client: an error
 * frame is `error_payload`, a stream without content `empty_stream`, one with neither a finish reason nor
 * `[DONE]` was cut on the way (`unfinished_stream`).
 */
export function foldStream(body: Uint8Array, nowMs: number): FoldedStream {
  const fold = new Fold();
  const reader = new SseFrameReader();
  if (reader.read(body, fold.visit) !== 'stopped') reader.finish(fold.visit);
  if (fold.failure !== null) return { ok: false, failure: fold.failure };
  if (!fold.useful) {
    const detail = 'stream ended before content';
    return { ok: false, failure: { type: 'content', kind: 'empty_stream', errorCode: null, detail } };
  }
  if (!fold.finished && !fold.done)
    return { ok: false, failure: { type: 'transport', kind: 'unfinished_stream' } };
  const { id, created, model, system_fingerprint: fingerprint } = fold.head;
  const completion: Record<string, unknown> = {
    id: id ?? 'chatcmpl-fcm',
    object: 'chat.completion',
    created: created ?? Math.floor(nowMs / 1000),
    model: model ?? null,
    ...(fingerprint === undefined ? {} : { system_fingerprint: fingerprint }),
    choices: [...fold.choices.entries()].sort(([a], [b]) => a - b).map(([index, c]) => choiceOf(index, c)),
  };
  if (fold.usage !== null) completion.usage = fold.usage;
  return { ok: true, completion };
}

/** True when a content type says `text/event-stream`. */
export function isEventStreamType(contentType: string | null): boolean {
  return contentType !== null && /text\/event-stream/i.test(contentType);
}

const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);
/** The SSE fields (and a comment's colon) a stream's first line opens with. */
const SSE_START = /^(?::|(?:data|event|id|retry):)/;

/**
 * True when a 2xx body is an SSE stream: its first non-blank bytes are an SSE field (`data:`, `event:`, `id:`,
 * `retry:`) or comment, whatever its content type; or its content type says `text/event-stream` and it does
 * not open like JSON or HTML (which the JSON path judges: a mislabelled JSON answer stays one).
 */
export function isSseBody(contentType: string | null, body: Uint8Array): boolean {
  let at = 0;
  while (at < body.length && BLANK.has(body[at] as number)) at += 1;
  const start = Buffer.from(body.buffer, body.byteOffset + at, Math.min(8, body.length - at)).toString(
    'latin1',
  );
  if (SSE_START.test(start)) return true;
  const first = start.charCodeAt(0);
  return isEventStreamType(contentType) && first !== 0x7b && first !== 0x3c;
}
