import type { ApiFace } from '../api-types.js';
import type { FailureKind } from '../gate/failure-kinds.js';
import type { GatedCompletion } from '../gate/response-gate.js';
import type { StreamPart, UpstreamFrame } from '../gate/stream-part.js';

/** The error a client gets when no model served its request. */
export interface ErrorAnswer {
  status: number;
  code: string;
  type: string;
  message: string;
  /** Seconds, for the Retry-After header. */
  retryAfterSec: number | null;
  /** The request field at fault, for a client error. */
  param?: string;
  /** The request is larger than every model of its set takes: its size and the largest window, in tokens. */
  tooLong?: { tokens: number; maximum: number };
}

/** The protocol a request came in on: chat completions, Anthropic Messages or OpenAI Responses. */
export type Face = ApiFace;

/** How the lines a client was sent of a stream end, for the words that close it. */
export interface SentTail {
  /** The client has the upstream's own `data: [DONE]`. */
  done: boolean;
  /** The line ends the bytes sent close with, up to two (an event's end): 2 for a stream sent as frames. */
  lineEnds: number;
}

/** What every face's encoder does, whichever way it reads a stream. */
interface EncoderCommon {
  readonly face: Face;
  /** A served non-stream answer (already gated: its text and the object the gate parsed) as the client's body. */
  json(completion: GatedCompletion): Buffer | string;
  /** The upstream's stream ended cleanly: the closing bytes, or null when the stream carried them already. */
  streamClose(sent: SentTail): string | null;
  /** The stream broke after content reached the client: the face's own error ending. */
  streamFailure(kind: FailureKind, model: string): string;
  /** An error before any byte reached the client: the face's error body (JSON). */
  error(answer: ErrorAnswer): string;
}

/** An encoder that relays the upstream's stream as it came (chat completions): the gate hands on bytes. */
export interface BytesEncoder extends EncoderCommon {
  readonly reads: 'bytes';
  /**
   * Whole SSE lines of the upstream's stream, in order, from the commit on (the first call carries the held
   * lines with the first real content): the bytes for the client, or null for none yet.
   */
  streamBytes(lines: Uint8Array): Uint8Array | string | null;
}

/** An encoder that writes the upstream's stream in its own protocol: the gate hands on the frames it parsed. */
export interface FramesEncoder extends EncoderCommon {
  readonly reads: 'frames';
  /** The upstream's frames, in order, from the commit on: the events for the client, or null for none yet. */
  streamFrames(frames: readonly UpstreamFrame[]): string | null;
}

/**
 * How one request's answer is written in its face's protocol. Upstreams always speak chat completions and
 * the engine judges their answer (gate, hold buffer) before anything reaches the encoder: an encoder only
 * translates what already passed, in the form the gate read it. One encoder per request; it may keep state
 * across a stream. Pure: no I/O, no clock of its own. A throw is a local fault (the request answers 500
 * `internal_error`).
 */
export type AnswerEncoder = BytesEncoder | FramesEncoder;

/** Hands a part of a stream to its encoder, in the form the encoder reads (the gate read it that way). */
export function encodePart(encoder: AnswerEncoder, part: StreamPart): Uint8Array | string | null {
  if (encoder.reads === 'bytes') {
    if (part instanceof Uint8Array) return encoder.streamBytes(part);
  } else if (!(part instanceof Uint8Array)) return encoder.streamFrames(part.frames);
  throw new TypeError(`the ${encoder.face} encoder reads ${encoder.reads}, and was handed something else`);
}
