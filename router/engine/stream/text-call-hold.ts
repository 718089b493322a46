/**
 * The stream's side of tool calls written as text (`readTextCalls`): the answer's first text waits here
 * while it may be such calls (blank, the start of call markup, JSON, a JSON fence), so nothing of it goes out
 * before its end tells. A think block opening the text goes on as it comes, and the text after it is read
 * the same way, as a whole answer's is. Words go on at once, with what waited before them, and are watched
 * for calls written after them (`CallsAfterWords`); calls come back to be held and checked like any call.
 * The hold is bounded (by the hold buffer's size): past `limit` characters the text goes on as words, unread.
 */
import { hasText } from '../../gate/answer-rules.js';
import { CallsAfterWords } from '../../gate/calls-after-words.js';
import type { OfferedTools } from '../../gate/offered-tools.js';
import { readTextCalls, textStart, type TextCallReading } from '../../gate/text-calls.js';
import { partialTagAtEnd, THINK_CLOSE, THINK_OPEN } from '../../gate/think-tags.js';

/** What the text that waited came to at the answer's end: calls, markup that cannot be read, or words. */
export type TextCallEnd = Exclude<TextCallReading, { kind: 'words' }> | { kind: 'words'; text: string };

/** One attempt's first text, while it may be tool calls. */
export class TextCallHold {
  readonly #offered: OfferedTools;
  readonly #limit: number;
  #held = '';
  #reading = true;
  /** The text so far may be calls (markup, JSON): it waits for the answer's end. */
  #maybeCalls = false;
  /** A think block opens the text and has not closed yet: it goes on as it comes. */
  #thinking = false;
  /** The words once they began, watched for calls after them (null: not, or no longer). */
  #after: CallsAfterWords | null = null;

  /** `offered`: the request's tools; `limit`: the most characters held. */
  constructor(offered: OfferedTools, limit: number) {
    this.#offered = offered;
    this.#limit = limit;
  }

  /** The text is still read here (none came yet, what came may be calls, or words are watched). */
  get reading(): boolean {
    return this.#reading || this.#after !== null;
  }

  /** The next piece of text must be read here, whatever it holds (see `CallsAfterWords.mustSeeNext`). */
  get mustSeeNext(): boolean {
    return this.#reading || this.#after?.mustSeeNext === true;
  }

  /** A piece of text with a line break must be read here. */
  get watchesLines(): boolean {
    return this.#reading || this.#after?.watchesLines === true;
  }

  /**
   * Reads a delta's text, in place: it is taken out while it waits, or goes on with the text that waited
   * before it; any other content than text (a call, a refusal) ends the wait, and what waited was words.
   * Returns whether the delta changed.
   */
  read(delta: Record<string, unknown>): boolean {
    if (!this.reading) return false;
    const piece = typeof delta.content === 'string' ? delta.content : '';
    const other =
      delta.tool_calls !== undefined || delta.function_call !== undefined || hasText(delta.refusal);
    if (piece === '' && !other) return false;
    const out = other ? this.stop() + piece : this.push(piece);
    if (out === piece) return false;
    if (out === null || out === '') delete delta.content;
    else delta.content = out;
    return true;
  }

  /** A piece of the answer's text: what goes on now (null: it waits), the text that waited first. */
  push(piece: string): string | null {
    if (this.#after !== null) return this.#after.push(piece);
    if (this.#thinking) return this.#passThink(piece);
    this.#held += piece;
    // Once it may be calls, only its end tells: its start need not be read again.
    if (!this.#maybeCalls) {
      const start = this.#held.trimStart();
      if (start.startsWith(THINK_OPEN)) {
        this.#thinking = true;
        return this.#passThink('', this.#held.indexOf(THINK_OPEN) + THINK_OPEN.length);
      }
      if (start !== '' && THINK_OPEN.startsWith(start)) return null;
      const kind = textStart(start);
      if (kind === 'words') return this.#words();
      this.#maybeCalls = kind === 'maybe_calls';
    }
    return this.#held.length <= this.#limit ? null : this.stop();
  }

  /**
   * A think block opening the text goes on as it comes (but for a piece of its close, `</thi`, kept until the
   * next piece tells); past its close, the text is read afresh. `from`: where its close may begin (past the
   * opening tag, when the text that waited holds it).
   */
  #passThink(piece: string, from = 0): string {
    const text = this.#held + piece;
    const close = text.indexOf(THINK_CLOSE, from);
    if (close === -1) {
      const partial = partialTagAtEnd(text, THINK_CLOSE);
      this.#held = text.slice(text.length - partial);
      return text.slice(0, text.length - partial);
    }
    const end = close + THINK_CLOSE.length;
    this.#held = '';
    this.#thinking = false;
    return text.slice(0, end) + (this.push(text.slice(end)) ?? '');
  }

  /** The words began: what waited goes on, and the words are watched from there. */
  #words(): string {
    const text = this.stop();
    this.#after = new CallsAfterWords(this.#offered, this.#limit);
    return this.#after.push(text);
  }

  /** Reading ends (the answer went on otherwise): the text that waited goes on as words. */
  stop(): string {
    const text = this.#held + (this.#after?.stop() ?? '');
    this.#held = '';
    this.#reading = false;
    this.#after = null;
    return text;
  }

  /** The answer ended: what the text that waited was. */
  end(): TextCallEnd {
    const after = this.#after;
    if (after !== null) {
      this.#after = null;
      const { words, calls } = after.end();
      return calls.length > 0 ? { kind: 'calls', calls } : { kind: 'words', text: words };
    }
    const text = this.stop();
    const reading = readTextCalls(text, this.#offered);
    return reading.kind === 'words' ? { kind: 'words', text } : reading;
  }
}
