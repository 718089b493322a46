/**
 * The upstream's chat-completions lines through a face's stream writer: the part every translating face's
 * encoder shares (the writer, which speaks the face's protocol, is its own).
 */
import { UpstreamLineReader, type FrameSink } from './upstream-lines.js';

/** A face's stream writer as the encoders drive it. */
export interface FaceStreamWriter extends FrameSink {
  /** The event text written since the last call. */
  take(): string;
  /** Writes the protocol's normal ending. */
  close(): void;
}

/** One per streamed request; the writer is made when the stream starts. */
export class TranslatedStream<W extends FaceStreamWriter> {
  readonly #reader = new UpstreamLineReader();
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

  /** The events the upstream's `lines` make, or null when they make none yet. */
  lines(lines: Uint8Array): string | null {
    const writer = this.writer;
    this.#reader.read(lines, writer);
    return orNull(writer.take());
  }

  /** The last line's events and the protocol's ending, or null when there is nothing left to write. */
  close(): string | null {
    const writer = this.writer;
    this.#reader.end(writer);
    writer.close();
    return orNull(writer.take());
  }
}

function orNull(text: string): string | null {
  return text === '' ? null : text;
}
