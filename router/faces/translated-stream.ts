/**
 * The upstream's chat-completions frames through a face's stream writer: the part every translating face's
 * encoder shares. It reads each frame's content into the writer, opens the stream before anything else,
 * ends it once (on `[DONE]`, at the close, or early on a failure) and drops frames after the end; the
 * writer only speaks the face's protocol. The frames are the objects the gate parsed; nothing here reads the
 * upstream's bytes again.
 */
import { readChunk, type ChatUsage, type DeltaSink } from './chat-deltas.js';
import type { UpstreamFrame } from '../gate/stream-part.js';

/** Receives the upstream frames in order. */
export interface FrameSink {
  frame(value: Record<string, unknown>): void;
  /** `data: [DONE]`: the upstream's answer is whole. */
  done(): void;
}

/** How the upstream said its answer ended; null where it did not say. */
export interface StreamEnding {
  finish: string | null;
  /** The stop string that ended the answer. */
  matchedStop: string | null;
  usage: ChatUsage | null;
}

/** A face's protocol for one stream: each piece of content as it comes, and the events that frame them. */
export interface FaceStreamWriter extends Omit<DeltaSink, 'finish' | 'usage'> {
  /** Writes the opening events; called once, before anything else. */
  open(): void;
  /** Writes the protocol's normal ending; called once, and nothing is written after it. */
  end(ending: StreamEnding): void;
  /** The event text written since the last call. */
  take(): string;
}

/**
 * One per streamed request; the writer is made when the stream starts. It reads the frames as a `DeltaSink`:
 * content goes on to the writer as it comes, the finish reason and usage wait for the ending.
 */
export class TranslatedStream<W extends FaceStreamWriter> implements DeltaSink {
  readonly #create: () => W;
  #writer: W | null = null;
  #ended = false;
  readonly #ending: StreamEnding = { finish: null, matchedStop: null, usage: null };

  constructor(create: () => W) {
    this.#create = create;
  }

  /** True once the stream has ended, normally or by `fail`. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The face's writer, made and opened on first use: even an empty stream starts with its opening. */
  get writer(): W {
    if (this.#writer === null) {
      this.#writer = this.#create();
      this.#writer.open();
    }
    return this.#writer;
  }

  /** The events the upstream's `frames` make, or null when they make none yet. */
  frames(frames: readonly UpstreamFrame[]): string | null {
    const writer = this.writer;
    for (const frame of frames) {
      if (this.#ended) break;
      if (frame === '[DONE]') this.#end(writer);
      else readChunk(frame, this);
    }
    return orNull(writer.take());
  }

  /** The protocol's ending, or null when there is nothing left to write. */
  close(): string | null {
    const writer = this.writer;
    this.#end(writer);
    return orNull(writer.take());
  }

  /**
   * Ends the stream with `ending` (the face's error events) in place of its normal ending: the events
   * written so far and the ending's; only what is left unsent once the stream has ended.
   */
  fail(ending: (writer: W, upstream: StreamEnding) => void): string {
    const writer = this.writer;
    if (!this.#ended) {
      this.#ended = true;
      ending(writer, this.#ending);
    }
    return writer.take();
  }

  reasoning(text: string): void {
    this.writer.reasoning(text);
  }

  text(text: string): void {
    this.writer.text(text);
  }

  toolCall(index: number, id: string | null, name: string | null, args: string): void {
    this.writer.toolCall(index, id, name, args);
  }

  finish(reason: string, matchedStop: string | null): void {
    this.#ending.finish = reason;
    this.#ending.matchedStop = matchedStop;
  }

  usage(usage: ChatUsage): void {
    this.#ending.usage = usage;
  }

  #end(writer: W): void {
    if (this.#ended) return;
    this.#ended = true;
    writer.end(this.#ending);
  }
}

function orNull(text: string): string | null {
  return text === '' ? null : text;
}
