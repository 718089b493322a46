/**
 * Reasoning written into the text. Some models write their thoughts as text inside `<think>…</think>` at
 * the start of their answer (Qwen3, DeepSeek R1 distills, MiniMax M2, where the provider does not parse
 * them out itself). A think block alone would pass for an answer, so the content rule reads past it: the
 * text after an opening think block (its leading blank lines dropped) is what the model said. The text
 * itself goes on as the model wrote it: interleaved-thinking models (MiniMax) need their think blocks back
 * in the conversation, and the agent sends them back only as text. Pure.
 */

/** The tags of a think block. */
export const THINK_OPEN = '<think>';
export const THINK_CLOSE = '</think>';

/**
 * What a whole answer's text says: the text after a think block that opens it (its leading blank lines
 * dropped; nothing when the block never closed, an answer cut in its thoughts), or the text itself when it
 * does not open with one.
 *
 * @example textPastThinkBlock('<think>Hmm.</think>\n\nHi.') // 'Hi.'
 */
export function textPastThinkBlock(text: string): string {
  const start = text.trimStart();
  if (!start.startsWith(THINK_OPEN)) return text;
  const close = start.indexOf(THINK_CLOSE, THINK_OPEN.length);
  return close === -1 ? '' : start.slice(close + THINK_CLOSE.length).trimStart();
}

/** Length of the longest end of `text` that begins `tag` (a tag split across pieces). */
export function partialTagAtEnd(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1)
    if (text.endsWith(tag.slice(0, length))) return length;
  return 0;
}

type Phase = 'opening' | 'thinking' | 'after' | 'plain';

/**
 * The same over a stream's text pieces, as they come, to tell when the answer starts saying something:
 * each piece gives what of it is said past the block. A piece that may still be the start of the tag
 * (`<thi`), or of its close, waits for the next one.
 */
export class ThinkTagReader {
  #phase: Phase = 'opening';
  /** Text held back: the answer's first characters while they may open a block, or a close's start. */
  #held = '';

  /** Pieces must still be read (false once the text is known to go on as it comes). */
  get reading(): boolean {
    return this.#phase !== 'plain';
  }

  /** One piece of the answer's text: what of it is said past the think block. */
  push(piece: string): string {
    if (this.#phase === 'plain') return piece;
    if (this.#phase === 'after') return this.#after(piece);
    const text = this.#held + piece;
    this.#held = '';
    return this.#phase === 'opening' ? this.#opening(text) : this.#thinking(text);
  }

  /** The text ended: what was held was said, unless it was inside the block. */
  end(): string {
    const held = this.#held;
    const thinking = this.#phase === 'thinking';
    this.#held = '';
    this.#phase = 'plain';
    return thinking ? '' : held;
  }

  #opening(text: string): string {
    const start = text.trimStart();
    if (start.startsWith(THINK_OPEN)) {
      this.#phase = 'thinking';
      return this.#thinking(start.slice(THINK_OPEN.length));
    }
    // Blank so far, or the tag's beginning: the next piece decides.
    if (start === '' || THINK_OPEN.startsWith(start)) {
      this.#held = text;
      return '';
    }
    this.#phase = 'plain';
    return text;
  }

  #thinking(text: string): string {
    const close = text.indexOf(THINK_CLOSE);
    if (close !== -1) {
      this.#phase = 'after';
      return this.#after(text.slice(close + THINK_CLOSE.length));
    }
    // Only what may begin the close is kept: the thoughts before it are nothing said.
    const partial = partialTagAtEnd(text, THINK_CLOSE);
    this.#held = text.slice(text.length - partial);
    return '';
  }

  /** After the block: the blank lines between it and the answer are dropped. */
  #after(piece: string): string {
    const said = piece.trimStart();
    if (said !== '') this.#phase = 'plain';
    return said;
  }
}
