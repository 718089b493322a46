/**
 * A relayed stream's idle limit (`streamIdleTimeoutMs`) once its content flows: data pushes it back, while
 * SSE comments only keep an unfinished answer alive. After the answer's ending (its finish reason) nothing is
 * awaited: when the limit passes with no data, silent or with comments alone, the stream is over, as at a
 * close (the answer is whole: its model is not blamed for a connection left open).
 */
import type { AttemptGuard } from '../../upstream/attempt-guard.js';

/** What the idle limit passing means: a stall, the end of the stream, or a wait until a later time. */
export type IdleVerdict = { type: 'stall' } | { type: 'over' } | { type: 'wait'; until: number };

/** What the verdict rests on. */
export interface IdleFacts {
  now: number;
  idleMs: number;
  /** When the last comment came since the last data, or null for none. */
  commentAt: number | null;
  /** The answer's ending went out (or is held back): asked only when the limit passes. */
  ended: () => boolean;
}

const STALL: IdleVerdict = { type: 'stall' };
const OVER: IdleVerdict = { type: 'over' };

/**
 * The idle limit passed with no data. After the answer's ending the stream is over; before it, silence is a
 * stall and comments keep the stream alive for the idle limit from the last of them. Pure.
 */
export function idleVerdict(facts: IdleFacts): IdleVerdict {
  if (facts.ended()) return OVER;
  const { commentAt } = facts;
  if (commentAt === null) return STALL;
  const until = commentAt + facts.idleMs;
  return until > facts.now ? { type: 'wait', until } : STALL;
}

/** What a stream's idle limit works with. */
export interface StreamIdleParts {
  guard: AttemptGuard;
  idleMs: number;
  /** The answer's ending went out, or is held back. */
  ended: () => boolean;
  /** The stream is over though its connection stays open: it ends as at the close. */
  over: () => void;
}

/**
 * Watches one stream's idle limit through its attempt's guard. The answer's ending is read only when the
 * limit passes, so a stream relayed as bytes is not parsed for it chunk by chunk.
 */
export class StreamIdle {
  readonly #parts: StreamIdleParts;
  #commentAt: number | null = null;

  constructor(parts: StreamIdleParts) {
    this.#parts = parts;
  }

  /** Starts the idle limit afresh (the headers came, or the client drained). */
  arm(): void {
    const { guard, idleMs } = this.#parts;
    guard.phase('stream_stall', idleMs, this.#atLimit);
  }

  /** Data came: the limit is pushed back. */
  progress(): void {
    this.#commentAt = null;
    this.#parts.guard.touch();
  }

  /** Only comments came: the limit stays where it is. */
  comment(): void {
    this.#commentAt = this.#parts.guard.now();
  }

  readonly #atLimit = (now: number): number | null => {
    const { idleMs, ended, over } = this.#parts;
    const verdict = idleVerdict({ now, idleMs, commentAt: this.#commentAt, ended });
    if (verdict.type === 'wait') return verdict.until;
    if (verdict.type === 'over') over();
    return null;
  };
}
