/**
 * Trims what a continuing model restates. Asked to go on from where an answer stopped, a model often
 * repeats its last words first (`…the quick brown fo` → `the quick brown fox jumps`). The start of the
 * continuation is held until it is clear how much of it repeats the end of what the client already has;
 * that much is dropped, and the rest goes on. Pure.
 */

/** How much of the end of the answer so far a continuation is compared with, in characters. */
export const OVERLAP_WINDOW = 2000;
/** A repeat shorter than this is taken as the continuation's own text (`a` after `…is a`). */
export const MIN_OVERLAP = 2;

const WORD = /[\p{L}\p{N}_]/u;

/** True when position `at` of `text` starts a word, a space or a sign (not the middle of a word). */
function startsToken(text: string, at: number): boolean {
  if (at === 0) return true;
  return !WORD.test(text.charAt(at - 1)) || !WORD.test(text.charAt(at));
}

/**
 * How many characters at the start of `head` repeat the end of `tail`: the longest end of `tail`, at least
 * `MIN_OVERLAP` long and starting at a token boundary, that `head` begins with; 0 when there is none.
 *
 * @example overlapLength('Hello wor', 'world!') // 3
 * @example overlapLength('It is a', 'n apple') // 0
 */
export function overlapLength(tail: string, head: string): number {
  for (let length = Math.min(tail.length, head.length); length >= MIN_OVERLAP; length -= 1) {
    const at = tail.length - length;
    if (startsToken(tail, at) && head.startsWith(tail.slice(at))) return length;
  }
  return 0;
}

/**
 * True while `head` may still grow into a longer repeat: it stands inside `tail` (at a token boundary) with
 * more of `tail` after it.
 */
export function mayRepeatMore(tail: string, head: string): boolean {
  for (let at = tail.indexOf(head); at >= 0; at = tail.indexOf(head, at + 1)) {
    if (at + head.length < tail.length && startsToken(tail, at)) return true;
  }
  return false;
}

/** The start of one continuation, held until its repeat of the answer so far is known. */
export class OverlapTrimmer {
  readonly #tail: string;
  #held = '';
  #decided = false;

  /** `sent`: what the client already has of this kind of content (text, or reasoning). */
  constructor(sent: string) {
    this.#tail = sent.slice(-OVERLAP_WINDOW);
    this.#decided = this.#tail.length < MIN_OVERLAP;
  }

  /** The continuation's next piece: what may go to the client now ('' while the start is held). */
  push(text: string): string {
    if (this.#decided) return text;
    this.#held += text;
    return mayRepeatMore(this.#tail, this.#held) ? '' : this.flush();
  }

  /** Ends the hold (something other than text comes next, or the stream ends): the held text, trimmed. */
  flush(): string {
    if (this.#decided) return '';
    this.#decided = true;
    const held = this.#held;
    this.#held = '';
    return held.slice(overlapLength(this.#tail, held));
  }
}
