/**
 * A stream handed on as frames, for a face that writes its own protocol: the tracker's reader goes on after
 * the commit, and each frame goes on as the object it parsed (those read before the commit first). The
 * bytes are split and parsed here only, once.
 */
import { Buffer } from 'node:buffer';
import type { TokenUsage } from './response-gate.js';
import { MAX_LINE_BYTES, type SseFrameReader } from './sse-frames.js';
import { type UpstreamFrame } from './stream-part.js';
import {
  frameFailure,
  usageAfter,
  type MidStreamFailure,
  type PassResult,
  type StreamPass,
} from './stream-pass.js';

const LINE_TOO_LONG: MidStreamFailure = {
  kind: 'mid_stream_error',
  errorCode: null,
  detail: `an SSE line longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`,
};

/** Reads on with the tracker's reader after the commit. */
export class FramePass implements StreamPass {
  readonly #reader: SseFrameReader;
  /** The frames read and not yet handed on. */
  #frames: UpstreamFrame[] = [];
  /** The stream bytes the frames not yet handed on came from. */
  #bytes = 0;
  #failure: MidStreamFailure | null = null;
  #usage: TokenUsage | null = null;
  /** Chunks brought by `keep`, read with the next chunk. */
  #kept: Uint8Array[] = [];

  constructor(reader: SseFrameReader) {
    this.#reader = reader;
  }

  heldFrame(frame: UpstreamFrame): void {
    this.#frames.push(frame);
  }

  commit(held: Buffer): PassResult {
    // The frames held so far came from the bytes the reader took; the rest is read on from there.
    this.#bytes += this.#reader.readTo;
    this.#read(held.subarray(this.#reader.readTo));
    return this.#take();
  }

  pass(chunk: Uint8Array): PassResult {
    this.#read(this.#withKept(chunk));
    return this.#take();
  }

  keep(chunk: Uint8Array): void {
    this.#kept.push(chunk);
  }

  end(): PassResult {
    if (this.#kept.length > 0) this.#read(this.#withKept(Buffer.alloc(0)));
    if (!this.#failure) this.#reader.finish(this.#judge);
    return this.#take();
  }

  pendingBytes(): number {
    return this.#reader.pendingBytes + this.#kept.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  usage(): TokenUsage | null {
    return this.#usage;
  }

  usageRead(usage: TokenUsage): void {
    // Frames are read here only: nobody after the gate parses them. Taken all the same.
    this.#usage = usage;
  }

  takeReadFrames(): null {
    // The frames read before the commit went on in the commit's batch.
    return null;
  }

  /** Every frame is handed on, up to an upstream error frame, which stops the reading. */
  readonly #judge = (frame: UpstreamFrame): boolean => {
    if (frame !== '[DONE]') {
      this.#usage = usageAfter(frame, this.#usage);
      this.#failure = frameFailure(frame);
      if (this.#failure) return true;
    }
    this.#frames.push(frame);
    return false;
  };

  /** Reads `bytes` into the frames to hand on (or up to an error frame). */
  #read(bytes: Uint8Array): void {
    this.#bytes += bytes.byteLength;
    if (this.#reader.read(bytes, this.#judge) === 'line_too_long') this.#failure = LINE_TOO_LONG;
  }

  #take(): PassResult {
    const frames = this.#frames;
    const failure = this.#failure;
    if (frames.length === 0) return { forward: null, failure };
    const batch = { frames, bytes: this.#bytes };
    this.#frames = [];
    this.#bytes = 0;
    return { forward: batch, failure };
  }

  #withKept(chunk: Uint8Array): Uint8Array {
    if (this.#kept.length === 0) return chunk;
    const all = Buffer.concat([...this.#kept, chunk]);
    this.#kept = [];
    return all;
  }
}
