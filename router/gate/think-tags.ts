/**
 * Reasoning written into the text. Some models write their thoughts as text inside `<think>…</think>` at
 * the start of their answer (Qwen3, DeepSeek R1 distills, MiniMax M2, where the provider does not parse
 * them out itself). A think block alone would pass for an answer, so the content rule reads past it: the
 * text after an opening think block (its leading blank lines dropped) is what the model said. The text
 * itself goes on as the model wrote it: interleaved-thinking models (MiniMax) need their think blocks back
 * in the conversation, and the agent sends them back only as text. Pure.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

/** Text split into the reasoning of its opening think block and the answer after it. */
export interface ThinkSplit {
  reasoning: string;
  content: string;
}

/**
 * A whole answer's text with its opening think block split off; null when it does not open with one. A
 * block never closed (an answer cut in its thoughts) is all reasoning.
 *
 * @example splitThinkBlock('<think>Hmm.</think>\n\nHi.') // { reasoning: 'Hmm.', content: 'Hi.' }
 */
export function splitThinkBlock(text: string): ThinkSplit | null {
  const start = text.trimStart();
  if (!start.startsWith(OPEN)) return null;
  const close = start.indexOf(CLOSE, OPEN.length);
  if (close === -1) return { reasoning: start.slice(OPEN.length), content: '' };
  return {
    reasoning: start.slice(OPEN.length, close),
    content: start.slice(close + CLOSE.length).trimStart(),
  };
}

/** Length of the longest end of `text` that begins `tag` (a tag split across pieces). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1)
    if (text.endsWith(tag.slice(0, length))) return length;
  return 0;
}

type Phase = 'opening' | 'thinking' | 'after' | 'plain';

const NOTHING: ThinkSplit = { reasoning: '', content: '' };

/**
 * The same split over a stream's text pieces, as they come, to tell when the answer starts saying
 * something: a piece that may still be the start of the tag (`<thi`), or of its close, waits for the next
 * one; everything else is split at once, as reasoning inside the block and as text after it.
 */
export class ThinkTagReader {
  #phase: Phase = 'opening';
  /** Text held back: the answer's first characters while they may open a block, or a close's start. */
  #held = '';

  /** Pieces must still be read (false once the text is known to go on as it comes). */
  get reading(): boolean {
    return this.#phase !== 'plain';
  }

  /** One piece of the answer's text, split. */
  push(piece: string): ThinkSplit {
    if (this.#phase === 'plain') return { reasoning: '', content: piece };
    if (this.#phase === 'after') return this.#after(piece);
    const text = this.#held + piece;
    this.#held = '';
    return this.#phase === 'opening' ? this.#opening(text) : this.#thinking(text);
  }

  /** The text ended: what was held goes as what it was taken for. */
  end(): ThinkSplit {
    const held = this.#held;
    this.#held = '';
    const phase = this.#phase;
    this.#phase = 'plain';
    if (held === '') return NOTHING;
    return phase === 'thinking' ? { reasoning: held, content: '' } : { reasoning: '', content: held };
  }

  #opening(text: string): ThinkSplit {
    const start = text.trimStart();
    if (start.startsWith(OPEN)) {
      this.#phase = 'thinking';
      return this.#thinking(start.slice(OPEN.length));
    }
    // Blank so far, or the tag's beginning: the next piece decides.
    if (start === '' || OPEN.startsWith(start)) {
      this.#held = text;
      return NOTHING;
    }
    this.#phase = 'plain';
    return { reasoning: '', content: text };
  }

  #thinking(text: string): ThinkSplit {
    const close = text.indexOf(CLOSE);
    if (close !== -1) {
      this.#phase = 'after';
      const after = this.#after(text.slice(close + CLOSE.length));
      return { reasoning: text.slice(0, close), content: after.content };
    }
    const partial = partialTagAtEnd(text, CLOSE);
    this.#held = text.slice(text.length - partial);
    return { reasoning: text.slice(0, text.length - partial), content: '' };
  }

  /** After the block: the blank lines between it and the answer are dropped. */
  #after(piece: string): ThinkSplit {
    const content = piece.trimStart();
    if (content !== '') this.#phase = 'plain';
    return { reasoning: '', content };
  }
}
