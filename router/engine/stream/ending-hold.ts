/**
 * Keeps back the ending of an answer that has said nothing yet. A thinking model streams its reasoning
 * first, and the answer commits on it; a model that then stops without a word (no text, refusal or tool
 * call) leaves the agent with thoughts and no answer. So while the answer is reasoning alone, its finish
 * frame, its `[DONE]` and whatever follows them wait here: words after them let them go, in order; at the
 * stream's end they go only if the answer was cut at its output limit (the agent's own `max_tokens`, as a
 * probe's few tokens are); otherwise the answer failed (`empty_content`) and the chain continues it.
 */
import type { UpstreamFrame } from '../../gate/stream-part.js';

/** Frames kept after an ending at most: a stream that goes on and on past its ending is let go unjudged. */
export const MAX_HELD_FRAMES = 64;

/** Why an answer that ended on reasoning alone failed. */
export const THOUGHTS_ALONE = 'the answer ended with reasoning alone: no text, refusal or tool call';

/** What the hold gives back at the stream's end: frames to send, or why the answer failed. */
export type HeldEnd = { frames: UpstreamFrame[]; problem: null } | { frames: null; problem: string };

const NOTHING_HELD: HeldEnd = { frames: [], problem: null };

/** One attempt's ending while its answer has said nothing. */
export class EndingHold {
  /** Nothing but reasoning has gone out: an ending must wait. */
  #silent: boolean;
  /** The ending and the frames after it, once one came while the answer was silent. */
  #held: UpstreamFrame[] | null = null;
  /** The held ending's finish reason (null: `[DONE]` came without one). */
  #finish: string | null = null;

  /** `silent`: the answer must still say something (false: its endings pass as they come). */
  constructor(silent: boolean) {
    this.#silent = silent;
  }

  /** The answer has said nothing yet: every frame must be read, to see its words or its ending. */
  get watching(): boolean {
    return this.#silent;
  }

  /** An ending is kept back. */
  get holding(): boolean {
    return this.#held !== null;
  }

  /** The answer said something: the frames kept back, to go before its words (null: none were). */
  said(): UpstreamFrame[] | null {
    this.#silent = false;
    const held = this.#held;
    this.#held = null;
    return held;
  }

  /**
   * Keeps `frame` back when it is a silent answer's ending (`finish`: its finish reason; `[DONE]` ends too)
   * or comes after one. Returns whether it was kept. Past `MAX_HELD_FRAMES` nothing more is kept: the caller,
   * finding it still `holding`, lets go what was (`said`), and the answer passes unjudged.
   */
  keeps(frame: UpstreamFrame, finish: string | null): boolean {
    if (this.#held === null) {
      if (!this.#silent || (finish === null && frame !== '[DONE]')) return false;
      this.#held = [];
      this.#finish = finish;
    } else if (this.#held.length >= MAX_HELD_FRAMES) return false;
    this.#held.push(frame);
    return true;
  }

  /** The stream ended: what was kept goes when the answer was cut at its output limit; otherwise it failed. */
  end(): HeldEnd {
    const held = this.#held;
    if (held === null) return NOTHING_HELD;
    if (this.#finish !== 'length') return { frames: null, problem: THOUGHTS_ALONE };
    this.#held = null;
    return { frames: held, problem: null };
  }
}
