/**
 * Reasoning written into the text. Some models stream their thoughts as text inside `<think>…</think>` at
 * the start of their answer (Qwen3, DeepSeek R1 distills, MiniMax M2, where the provider does not parse
 * them out itself). An agent shows that as the answer's text, and an answer that is only a think block
 * would pass for an answer. So a think block that opens the text is read as what it is: reasoning, and the
 * text after it (its leading blank lines dropped) is the answer. Text that does not open with the tag is
 * left as it came. Pure.
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
 * The same split over a stream's text pieces, as they come: a piece that may still be the start of the tag
 * (`<thi`), or of its close, waits for the next one; everything else goes on at once, as reasoning inside
 * the block and as text after it.
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

  /**
   * A stream's delta with its text split in place: the reasoning in it goes to `reasoning_content` (after
   * any the delta has), the rest stays `content` (removed when nothing is left). `last`: the text ends with
   * it, and what was held goes too. Returns whether the delta changed.
   */
  readDelta(delta: Record<string, unknown>, last: boolean): boolean {
    const piece = typeof delta.content === 'string' ? delta.content : '';
    const split = piece === '' ? { ...NOTHING } : this.push(piece);
    if (last) {
      const rest = this.end();
      split.reasoning += rest.reasoning;
      split.content += rest.content;
    }
    if (split.reasoning === '' && split.content === piece) return false;
    if (split.content === '') delete delta.content;
    else delta.content = split.content;
    if (split.reasoning !== '') {
      const before = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : '';
      delta.reasoning_content = before + split.reasoning;
    }
    return true;
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

/**
 * A body's `choices[i]` whose message text opens with a think block gets it as `reasoning_content` (unless
 * it has reasoning of its own), the text after it as its content. Returns whether it changed.
 */
export function thinkBlockToReasoning(choice: unknown): boolean {
  if (typeof choice !== 'object' || choice === null) return false;
  const message = (choice as { message?: unknown }).message;
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  if (typeof m.content !== 'string' || hasReasoning(m)) return false;
  const split = splitThinkBlock(m.content);
  if (split === null) return false;
  m.content = split.content;
  m.reasoning_content = split.reasoning;
  return true;
}

/** A message or delta that carries reasoning of its own (the provider parsed it out). */
export const hasReasoning = (m: Record<string, unknown>): boolean =>
  (typeof m.reasoning_content === 'string' && m.reasoning_content !== '') ||
  (typeof m.reasoning === 'string' && m.reasoning !== '');
