/**
 * What of an upstream's stream passes the gate, in the form the face's encoder reads it: the upstream's
 * whole lines as they came, or the frames the gate parsed from them; and the helpers that work on either.
 */
import { Buffer } from 'node:buffer';

/** One frame of an upstream's stream: a data event's JSON object, or its closing `[DONE]`. */
export type UpstreamFrame = Record<string, unknown> | '[DONE]';

/** Frames read from the stream, and how many of its bytes they came from (for limits counted in bytes). */
export interface FrameBatch {
  readonly frames: readonly UpstreamFrame[];
  readonly bytes: number;
}

/**
 * What of a stream passed the gate, in the form its reader takes: the upstream's bytes as they came (whole
 * lines), or the frames read from them.
 */
export type StreamPart = Uint8Array | FrameBatch;

/** The stream bytes a part holds or came from. */
export const partBytes = (part: StreamPart): number =>
  part instanceof Uint8Array ? part.byteLength : part.bytes;

/** True when a part carries nothing to hand on. */
export const isEmptyPart = (part: StreamPart): boolean =>
  part instanceof Uint8Array ? part.byteLength === 0 : part.frames.length === 0;

/** Frames as the SSE lines an upstream sends them in. */
export function sseLines(frames: readonly UpstreamFrame[]): string {
  let out = '';
  for (const frame of frames) out += `data: ${frame === '[DONE]' ? frame : JSON.stringify(frame)}\n\n`;
  return out;
}

/**
 * Frames the router writes itself (an ending, a replay), in the form a stream is handed on in: as they are,
 * or as their SSE lines.
 */
export function partOf(frames: readonly UpstreamFrame[], reading: StreamReading): StreamPart {
  return reading === 'frames' ? { frames, bytes: 0 } : Buffer.from(sseLines(frames));
}

/** How a stream is handed on past the gate: as bytes (relayed untouched) or as parsed frames. */
export type StreamReading = 'bytes' | 'frames';

/** Parts of one reading, in order, as one (null for none). */
export function joinAll(parts: readonly StreamPart[]): StreamPart | null {
  if (parts.length <= 1) return parts[0] ?? null;
  if (parts[0] instanceof Uint8Array) return Buffer.concat(parts as Uint8Array[]);
  const batches = parts as FrameBatch[];
  return { frames: batches.flatMap((b) => b.frames), bytes: batches.reduce((sum, b) => sum + b.bytes, 0) };
}
