/**
 * What a stream tracker hands on after the commit, and the two ways it does (`byte-pass.ts`, `frame-pass.ts`):
 * the face's encoder chooses by how it reads a stream.
 */
import type { Buffer } from 'node:buffer';
import { describeUpstreamError, readUsage, type TokenUsage } from './response-gate.js';
import { joinAll, type FrameBatch, type StreamPart, type UpstreamFrame } from './stream-part.js';

export type MidStreamFailure = {
  kind: 'mid_stream_error';
  errorCode: number | string | null;
  detail: string;
};

export interface PassResult {
  /** What is safe to hand the client's encoder now, in the tracker's reading (null when nothing is). */
  forward: StreamPart | null;
  failure: MidStreamFailure | null;
}

export const NOTHING: PassResult = { forward: null, failure: null };

/** After the commit: how the stream is handed on. A result with a failure is the last one that forwards. */
export interface StreamPass {
  /** Before the commit: a frame the tracker read and judged, to be handed on at the commit. */
  heldFrame(frame: UpstreamFrame): void;
  /** At the commit: the whole stream held so far, which the tracker's reader has read up to where it stopped. */
  commit(held: Buffer): PassResult;
  /** One chunk after the commit. */
  pass(chunk: Uint8Array): PassResult;
  /** A chunk brought to the tracker's `hold` after the commit: kept for the next `pass` or the `end`. */
  keep(chunk: Uint8Array): void;
  /** The upstream ended: what is left. */
  end(): PassResult;
  /** Bytes kept until their line ends. */
  pendingBytes(): number;
  /** The latest usage read after the commit, or null. */
  usage(): TokenUsage | null;
  /** The lines last handed on were read after the gate, and this is the latest usage in them (see the tracker's). */
  usageRead(usage: TokenUsage): void;
  /**
   * Once, after the commit of a stream handed on as bytes: the frames read before the commit and how many of
   * the forwarded bytes (whole lines, from the first) they came from, so that a reader of those bytes need
   * not parse them again. Null when there is nothing to give (a stream handed on as frames gives them itself).
   */
  takeReadFrames(): FrameBatch | null;
}

/** A parsed frame's upstream error, as a failure after content; null for any other frame. */
export function frameFailure(frame: Record<string, unknown>): MidStreamFailure | null {
  if (frame.error == null) return null;
  const { errorCode, detail } = describeUpstreamError(frame.error);
  return { kind: 'mid_stream_error', errorCode, detail };
}

/** The usage a frame carries, or what was known before it. */
export const usageAfter = (frame: Record<string, unknown>, before: TokenUsage | null): TokenUsage | null =>
  readUsage(frame) ?? before;

/** Two parts handed on by one call, in order (both in the tracker's one reading). */
export function joinParts(a: StreamPart | null, b: StreamPart | null): StreamPart | null {
  if (!a || !b) return a ?? b;
  return joinAll([a, b]);
}
