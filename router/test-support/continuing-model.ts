/**
 * Fake models for answers that die half-way and are finished by another: one that streams the start of an
 * answer and then dies (a cut, an error frame, a stall), and one that, asked to continue an answer, streams
 * the rest of it (restating the end of what it was given first, as models do).
 */
import type { Behaviour } from './upstream-behaviours.js';
import { sse } from './upstream-behaviours.js';
import { contentFrame, errorFrame, finishFrame, roleFrame, usageFrame } from './upstream-frames.js';

/** How a stream dies after content: its connection cut, an upstream error frame, or silence. */
export type Death = 'cut' | 'error' | 'stall';

/** The failure kind each death is classified as. */
export const DEATH_KINDS = {
  cut: 'network_error',
  error: 'mid_stream_error',
  stall: 'stream_stall',
} as const;

/** Streams `frames` after a role frame, then dies as `death` says. */
export function diesAfter(frames: readonly Record<string, unknown>[], death: Death): Behaviour {
  const all = [roleFrame(), ...frames];
  if (death === 'error') return sse([...all, errorFrame()], { done: false });
  return sse(all, { then: death === 'cut' ? 'reset' : 'stall' });
}

/** The answer so far a continuation request carries (the assistant message before its last), or null. */
export function continuedFrom(body: Record<string, unknown> | null): string | null {
  const messages = Array.isArray(body?.messages) ? (body.messages as unknown[]) : [];
  const before = messages.at(-2) as { role?: unknown; content?: unknown } | undefined;
  const last = messages.at(-1) as { role?: unknown } | undefined;
  if (last?.role !== 'user' || before?.role !== 'assistant' || typeof before.content !== 'string')
    return null;
  return before.content;
}

/** `text` cut into `count` pieces of about the same length. */
export function piecesOf(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/**
 * A model whose answer is `full`: asked to continue an answer that `full` begins with, it streams the rest,
 * first restating the last `restate` characters it was given; asked afresh, all of it.
 */
export function finishes(full: string, options: { restate?: number; pieces?: number } = {}): Behaviour {
  return (res, call) => {
    const sofar = continuedFrom(call.body);
    const from = sofar !== null && full.startsWith(sofar) ? sofar.length : 0;
    const start = Math.max(0, from - (sofar === null ? 0 : (options.restate ?? 0)));
    const frames = piecesOf(full.slice(start), options.pieces ?? 3).map(contentFrame);
    return sse([roleFrame(), ...frames, finishFrame('stop'), usageFrame(9, 12)])(res, call);
  };
}
