import type { ApiFace } from '../api-types.js';
import type { FailureKind } from '../gate/failure-kinds.js';

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

/**
 * How one request's answer is written in its face's protocol. Upstreams always speak chat completions and
 * the engine judges their answer (gate, hold buffer) before anything reaches the encoder: an encoder only
 * translates what already passed. One encoder per request; it may keep state across a stream. Pure: no
 * I/O, no clock of its own. A throw is a local fault (the request answers 500 `internal_error`).
 */
export interface AnswerEncoder {
  readonly face: Face;
  /** A served non-stream answer: the upstream's chat completion (already gated) as the client's body. */
  json(completion: Buffer | string): Buffer | string;
  /**
   * Whole SSE lines of the upstream's chat-completions stream, in order, from the commit on (the first call
   * carries the held lines with the first real content): the bytes for the client, or null for none yet.
   */
  streamLines(lines: Uint8Array): Uint8Array | string | null;
  /** The upstream's stream ended cleanly: the closing bytes, or null when the lines carried them already. */
  streamClose(): string | null;
  /** The stream broke after content reached the client: the face's own error ending. */
  streamFailure(kind: FailureKind, model: string): string;
  /** An error before any byte reached the client: the face's error body (JSON). */
  error(answer: ErrorAnswer): string;
}
