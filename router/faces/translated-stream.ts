/**
 * The upstream's chat-completions frames through a face's stream writer: the part every translating face's
 * encoder shares (the writer, which speaks the face's protocol, is its own). The frames are the objects the
 * gate parsed; nothing here reads the upstream's bytes again.
 */
import type { UpstreamFrame } from '../gate/stream-part.js';

/** Receives the upstream frames in order. */
export interface FrameSink {
  frame(value: Record<string, unknown>): void;
  /** `data: [DONE]`: the upstream's answer is whole. */
  done(): void;
}

/** A face's stream writer as the encoders drive it. */
export interface FaceStreamWriter extends FrameSink {
  /** The event text written since the last call. */
  take(): string;
  /** Writes the protocol's normal ending. */
  close(): void;
}

/** One per streamed request; the writer is made when the stream starts. */
export class TranslatedStream<W extends FaceStreamWriter> {
  readonly #create: () => W;
  #writer: W | null = null;

  constructor(create: () => W) {
    this.#create = create;
  }

  /** The face's writer (made on first use). */
  get writer(): W {
    this.#writer ??= this.#create();
    return this.#writer;
  }

  /** The events the upstream's `frames` make, or null when they make none yet. */
  frames(frames: readonly UpstreamFrame[]): string | null {
    const writer = this.writer;
    for (const frame of frames) {
      if (frame === '[DONE]') writer.done();
      else writer.frame(frame);
    }
    return orNull(writer.take());
  }

  /** The protocol's ending, or null when there is nothing left to write. */
  close(): string | null {
    const writer = this.writer;
    writer.close();
    return orNull(writer.take());
  }
}

function orNull(text: string): string | null {
  return text === '' ? null : text;
}
