/**
 * What the client already has of a streamed answer, for the router to go on from it when the stream dies.
 * Lines sent as bytes (chat completions) are kept by reference and read only when asked, or past a
 * mebibyte: a stream that ends well costs no parsing here, and a long one keeps at most that much unread
 * (then only its text). Frames sent as parsed (a translating face) are read as they go, since reading a
 * parsed frame is a few field reads while keeping it would hold every object of every frame for the
 * stream's life (long enough for the collector to move them all to the old generation). The frames the gate
 * or the shaper already read from lines sent as bytes are taken as they are: only lines nobody parsed
 * before are parsed here, so nothing is parsed twice.
 */
import { SseFrameReader } from '../../gate/sse-frames.js';
import {
  endsWithDone,
  lineEndsAfter,
  type FrameBatch,
  type StreamPart,
  type UpstreamFrame,
} from '../../gate/stream-part.js';
import { readChunk, type ChatUsage, type DeltaSink } from '../../faces/chat-deltas.js';
import type { SentTail } from '../../faces/answer-encoder.js';
import type { FrameSink } from '../../faces/translated-stream.js';

/** The answer so far, as the client got it. */
export interface AnswerSoFar {
  text: string;
  reasoning: string;
  /** Tool calls sent (whole ones, when the router checks them). */
  toolCalls: number;
  /** A finish reason was sent: the answer was over, only its ending was missing. */
  finished: boolean;
  /** `[DONE]` was sent too. */
  done: boolean;
  /** More text than a continuation request carries: the answer is not continued. */
  tooLong: boolean;
  /** The upstream chunk's `id`, `created` and `model`, for the frames the router writes itself. */
  base: ChunkBase;
}

/** The fields a chat-completions chunk carries besides its choices. */
export interface ChunkBase {
  id: unknown;
  created: unknown;
  model: unknown;
}

/** The most text (and reasoning) a continuation carries back to the next model, in characters. */
export const MAX_SO_FAR_CHARS = 512 * 1024;
/** Lines kept unread before they are read and let go (bytes, and pieces). */
const READ_AT_BYTES = 1024 * 1024;
const READ_AT_PIECES = 8192;

/** Reads sent frames into an `AnswerSoFar`. */
class SoFarReader implements DeltaSink, FrameSink {
  readonly state: AnswerSoFar = {
    text: '',
    reasoning: '',
    toolCalls: 0,
    finished: false,
    done: false,
    tooLong: false,
    base: { id: 'chatcmpl-fcm', created: 0, model: null },
  };

  frame(value: Record<string, unknown>): void {
    const { id, created, model } = value;
    const base = this.state.base;
    // A stream's frames mostly repeat one base: a new object only when it changes.
    if (typeof id === 'string' && (id !== base.id || created !== base.created || model !== base.model))
      this.state.base = { id, created, model };
    readChunk(value, this);
  }

  done(): void {
    this.state.done = true;
  }

  reasoning(text: string): void {
    this.#grow('reasoning', text);
  }

  text(text: string): void {
    this.#grow('text', text);
  }

  toolCall(_index: number, id: string | null, name: string | null): void {
    if (id !== null || name !== null) this.state.toolCalls += 1;
  }

  finish(): void {
    this.state.finished = true;
  }

  usage(_usage: ChatUsage): void {}

  #grow(field: 'text' | 'reasoning', text: string): void {
    const state = this.state;
    if (state.tooLong) return;
    if (state.text.length + state.reasoning.length + text.length > MAX_SO_FAR_CHARS) {
      state.tooLong = true;
      state.text = '';
      state.reasoning = '';
      return;
    }
    state[field] += text;
  }
}

/** A part sent as bytes, with the frames already read from its first `read.bytes` bytes. */
interface ReadBytes {
  bytes: Uint8Array;
  read: FrameBatch;
}

/** What one answer sent its client of the upstream's stream. */
export class SentLines {
  readonly #reader = new SseFrameReader();
  readonly #soFar = new SoFarReader();
  #unread: (Uint8Array | ReadBytes)[] = [];
  #unreadBytes = 0;
  /** The last line sent as bytes was `[DONE]`. */
  #doneLast = false;
  /** The line ends the bytes sent close with (up to two); a stream starts at an event's end. */
  #lineEnds = 2;

  /**
   * A part that went to the client: frames are read now, bytes kept as they are and read later. `read`: of
   * a part as bytes, the frames already read from its first `read.bytes` bytes, taken as they are.
   */
  add(part: StreamPart, read: FrameBatch | null = null): void {
    if (!(part instanceof Uint8Array)) {
      if (this.#unread.length > 0) this.#read();
      for (const frame of part.frames) this.#visit(frame);
      return;
    }
    this.#doneLast = endsWithDone(part) ?? this.#doneLast;
    this.#lineEnds = lineEndsAfter(part, this.#lineEnds);
    this.#unread.push(read === null ? part : { bytes: part, read });
    this.#unreadBytes += part.byteLength;
    if (this.#unreadBytes >= READ_AT_BYTES || this.#unread.length >= READ_AT_PIECES) this.#read();
  }

  /**
   * The client has the stream's ending: a finish reason or `[DONE]` went out. Lines sent as bytes are read
   * for it only when they did not end with `[DONE]` (rare: a stream cut on the way, or a provider that sends
   * only the finish reason).
   */
  hasEnding(): boolean {
    if (this.#doneLast) return true;
    this.#read();
    const { finished, done } = this.#soFar.state;
    return finished || done;
  }

  /**
   * How the lines sent end: whether the client has the upstream's `[DONE]` (lines sent as bytes are read for
   * it only when they did not end with it: a stream that ended without one), and the line ends after them.
   */
  tail(): SentTail {
    const lineEnds = this.#lineEnds;
    if (this.#doneLast) return { done: true, lineEnds };
    this.#read();
    return { done: this.#soFar.state.done, lineEnds };
  }

  /** The line ends the bytes sent close with, up to two: fewer when an upstream's line or event was left open. */
  get lineEnds(): number {
    return this.#lineEnds;
  }

  /** The answer so far (a copy: later lines do not change it). */
  read(): AnswerSoFar {
    this.#read();
    return { ...this.#soFar.state };
  }

  #read(): void {
    for (const part of this.#unread) {
      if (part instanceof Uint8Array) this.#reader.read(part, this.#visit);
      else this.#readBytes(part);
    }
    this.#unread = [];
    this.#unreadBytes = 0;
  }

  #readBytes({ bytes, read }: ReadBytes): void {
    for (const frame of read.frames) this.#visit(frame);
    if (read.bytes < bytes.byteLength) this.#reader.read(bytes.subarray(read.bytes), this.#visit);
  }

  readonly #visit = (frame: UpstreamFrame): boolean => {
    if (frame === '[DONE]') this.#soFar.done();
    else this.#soFar.frame(frame);
    return false;
  };
}

/** A chat-completions chunk for choice 0 with the given delta, as the router writes one. */
export function chunkFrame(
  base: ChunkBase,
  delta: Record<string, unknown>,
  finish: string | null = null,
): Record<string, unknown> {
  return { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] };
}

/**
 * The frames that end an answer which was whole but for its ending (its finish reason, or its tool calls,
 * went out): the finish reason if it was not sent, and `[DONE]`.
 */
export function closingFrames(soFar: AnswerSoFar): UpstreamFrame[] {
  const frames: UpstreamFrame[] = [];
  if (!soFar.finished) frames.push(chunkFrame(soFar.base, {}, soFar.toolCalls > 0 ? 'tool_calls' : 'stop'));
  if (!soFar.done) frames.push('[DONE]');
  return frames;
}
