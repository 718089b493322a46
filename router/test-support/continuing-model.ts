/**
 * Fake models for answers that die half-way and are finished by another: one that streams the start of an
 * answer and then dies (a cut, an error frame, a stall, an unusable tool call), and one that, asked to
 * continue an answer, streams the rest of it (restating the end of what it was given first, as models do),
 * and may die in turn.
 */
import type { AnswerSoFar } from '../engine/stream/answer-so-far.js';
import type { Behaviour } from './upstream-behaviours.js';
import { sse } from './upstream-behaviours.js';
import {
  contentFrame,
  errorFrame,
  finishFrame,
  roleFrame,
  toolCallFrame,
  usageFrame,
} from './upstream-frames.js';

/**
 * How a stream dies after content: its connection cut, an error frame, silence, a tool call nobody can run,
 * or a clean close with neither a finish reason nor `[DONE]` (cut on the way by something in between).
 */
export type Death = 'cut' | 'error' | 'stall' | 'bad_tool' | 'ends';

/** The failure kind each death is classified as. */
export const DEATH_KINDS = {
  cut: 'network_error',
  error: 'mid_stream_error',
  stall: 'stream_stall',
  bad_tool: 'invalid_tool_call',
  ends: 'unfinished_stream',
} as const;

/** Streams `frames` after a role frame, then dies as `death` says. */
export function diesAfter(frames: readonly Record<string, unknown>[], death: Death): Behaviour {
  const all = [roleFrame(), ...frames];
  if (death === 'error') return sse([...all, errorFrame()], { done: false });
  if (death === 'ends') return sse(all, { done: false });
  if (death === 'bad_tool') {
    const call = toolCallFrame(0, '{"path": "a", <|tool_call_end|>', { id: 'call_bad', name: 'Read' });
    return sse([...all, call, finishFrame('tool_calls')]);
  }
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
 * Where a model restating `words` words of `sofar` starts again: the start of its `words`-th last word (a
 * word that is cut short counts), never a restart of one character (the router keeps a one-character
 * repeat as new text); `sofar.length` for none.
 */
const WORD = /[\p{L}\p{N}_]/u;

export function restartAt(sofar: string, words: number): number {
  let restart = sofar.length;
  let left = words;
  for (let at = sofar.length - 1; at >= 0 && left > 0; at -= 1) {
    const starts = WORD.test(sofar.charAt(at)) && (at === 0 || !WORD.test(sofar.charAt(at - 1)));
    if (!starts || sofar.length - at < 2) continue;
    restart = at;
    left -= 1;
  }
  return restart;
}

export interface ContinueOptions {
  /** Characters of the answer so far it restates first. */
  restate?: number;
  /** Or: whole words of it (see {@link restartAt}). */
  restateWords?: number;
  /** How many pieces it streams its part in. @default 3 */
  pieces?: number;
  /** It dies after this many characters of its part. */
  dies?: { after: number; death: Death };
}

/**
 * A model whose answer is `full`: asked to continue an answer that `full` begins with, it streams the rest,
 * first restating some of what it was given; asked afresh, all of it.
 */
export function finishes(full: string, options: ContinueOptions = {}): Behaviour {
  return (res, call) => {
    const sofar = continuedFrom(call.body);
    const from = sofar !== null && full.startsWith(sofar) ? sofar.length : 0;
    const restarted =
      sofar === null ? 0 : options.restateWords !== undefined ? restartAt(sofar, options.restateWords) : from;
    const start = Math.max(0, Math.min(restarted, from - (options.restate ?? 0)));
    const part = full.slice(start);
    // A model that dies does so mid-answer: something of its part is always left unsaid.
    const dies = options.dies && part.length > 1 ? options.dies : null;
    const said = dies ? part.slice(0, Math.min(Math.max(1, dies.after), part.length - 1)) : part;
    const frames = piecesOf(said, options.pieces ?? 3).map(contentFrame);
    if (dies) return diesAfter(frames, dies.death)(res, call);
    return sse([roleFrame(), ...frames, finishFrame('stop'), usageFrame(9, 12)])(res, call);
  };
}

/** What a continuation goes on from: nothing sent yet unless `over` says so. */
export const answerSoFar = (over: Partial<AnswerSoFar> = {}): AnswerSoFar => ({
  text: '',
  reasoning: '',
  toolCalls: 0,
  finished: false,
  done: false,
  tooLong: false,
  base: { id: 'chatcmpl-1', created: 0, model: 'm' },
  ...over,
});
