/**
 * Tool calls written into the text after the model's words: "I'll read it.\n<tool_call>{…}</tool_call>".
 * Models served without a tool parser (Qwen's Hermes template, Mistral's) often say a sentence before their
 * calls. The calls count when their markup (`<tool_call>`, `[TOOL_CALLS]`) opens a line outside a code
 * fence and everything from there to the answer's end reads as calls to offered tools, with arguments those
 * tools take; otherwise the whole answer is words, as the model wrote it (an answer that shows such markup
 * is not taken for calls, and a wrong guess would run a command nobody meant). One reader serves a stream's
 * pieces and a whole answer's text alike, so both read the same calls. Pure.
 */
import { toolCallProblem } from './answer-rules.js';
import type { OfferedTools } from './offered-tools.js';
import { FENCE, MISTRAL, TAG_CLOSE, TAG_OPEN, type TextCall } from './call-markup.js';
import { readTextCalls } from './text-calls.js';

/** What the words ended with: the calls (none when they are words), and what was held that is words. */
export interface WordsEnd {
  words: string;
  calls: TextCall[];
}

/** What opens call markup at a line's start. */
const LINE_OPENERS = [TAG_OPEN, MISTRAL];
/** What a line's first characters may begin, to be held for: call markup, or a fence. */
const LINE_STARTS = [...LINE_OPENERS, FENCE];

const isBlank = (char: string | undefined): boolean =>
  char === ' ' || char === '\n' || char === '\r' || char === '\t';

/** The words of one answer as they come, watched for calls written at their end. */
export class CallsAfterWords {
  readonly #offered: OfferedTools;
  readonly #limit: number;
  /** The next character begins a line. */
  #lineStart = true;
  /** Inside a code fence: markup there is shown, not called. */
  #fenced = false;
  /**
   * A line's first characters, held while they may open call markup or a fence (an indented line goes on:
   * code's indents are common, and calls are not indented).
   */
  #head = '';
  /** The text from a line that opens call markup: held while it may be calls (null: none). */
  #held: string | null = null;
  /** How far `#held` is known to be call-shaped, and where in its markup that is. */
  #scan = 0;
  #inBlock = false;
  #bodySeen = false;
  /** The held markup is Mistral's: its calls run to the end. */
  #mistral = false;
  /** Past the limit: the rest goes on unread. */
  #off = false;

  /** `offered`: the request's tools; `limit`: the most characters held. */
  constructor(offered: OfferedTools, limit: number) {
    this.#offered = offered;
    this.#limit = limit;
  }

  /** Something is held. */
  get holding(): boolean {
    return this.#held !== null || this.#head !== '';
  }

  /**
   * The next piece must be read whatever it holds: a line starts with it, or something is held. Otherwise only
   * a piece with a line break can change what is watched (text within a line opens no markup).
   */
  get mustSeeNext(): boolean {
    return !this.#off && (this.#lineStart || this.holding);
  }

  /** Pieces with a line break must still be read (the watch is on). */
  get watchesLines(): boolean {
    return !this.#off;
  }

  /** A piece of the words: what goes on now (the start of a line that may open calls waits). */
  push(piece: string): string {
    if (this.#off) return piece;
    if (this.#held === null) return this.#words(piece);
    this.#held += piece;
    if (this.#held.length > this.#limit) {
      this.#off = true;
      return this.stop();
    }
    return this.#callShaped() ? '' : this.#release();
  }

  /** The watch ends (the answer went on otherwise): what was held goes on as words. */
  stop(): string {
    const text = this.#head + (this.#held ?? '');
    this.#head = '';
    this.#held = null;
    return text;
  }

  /** The answer ended: the calls its words ended with, or what was held, as words. */
  end(): WordsEnd {
    const held = this.#held;
    const text = this.stop();
    if (held === null) return { words: text, calls: [] };
    const reading = readTextCalls(held, this.#offered);
    const runnable =
      reading.kind === 'calls' &&
      reading.calls.every((call) => toolCallProblem(call.name, call.args, this.#offered) === null);
    return runnable ? { words: '', calls: reading.calls } : { words: text, calls: [] };
  }

  /** Text not held: it goes on, but for a line start that opens (or may open) call markup. */
  #words(piece: string): string {
    const text = this.#head + piece;
    this.#head = '';
    let out = '';
    let at = 0;
    while (at < text.length) {
      const newline = text.indexOf('\n', at);
      if (this.#lineStart) {
        const line = text.slice(at, newline === -1 ? text.length : newline);
        if (!this.#fenced && LINE_OPENERS.some((opener) => line.startsWith(opener))) {
          this.#held = '';
          this.#scan = 0;
          this.#inBlock = false;
          this.#mistral = line.startsWith(MISTRAL);
          return out + this.push(text.slice(at));
        }
        if (newline === -1 && LINE_STARTS.some((opener) => opener.startsWith(line))) {
          this.#head = line;
          return out;
        }
        if (line.startsWith(FENCE)) this.#fenced = !this.#fenced;
      }
      if (newline === -1) {
        this.#lineStart = false;
        return out + text.slice(at);
      }
      out += text.slice(at, newline + 1);
      this.#lineStart = true;
      at = newline + 1;
    }
    return out;
  }

  /** What was held is no calls: its first line goes on as words, and the rest is read again. */
  #release(): string {
    const text = this.#held ?? '';
    this.#held = null;
    const newline = text.indexOf('\n');
    this.#lineStart = newline !== -1;
    return newline === -1 ? text : text.slice(0, newline + 1) + this.#words(text.slice(newline + 1));
  }

  /**
   * Whether the held text may still be calls: Mistral's calls run to the end; `<tool_call>` blocks hold JSON
   * or a `<function=…>` block, with nothing but blanks between them. Read on from where the last look stopped.
   */
  #callShaped(): boolean {
    const held = this.#held ?? '';
    if (this.#mistral) return true;
    while (this.#scan < held.length) {
      const char = held[this.#scan];
      if (this.#inBlock) {
        if (!this.#bodySeen) {
          if (isBlank(char)) {
            this.#scan += 1;
            continue;
          }
          // JSON, or a function block (`<function=…>`, as Qwen3-Coder writes its calls).
          if (char !== '{' && char !== '[' && char !== '<') return false;
          this.#bodySeen = true;
        }
        const close = held.indexOf(TAG_CLOSE, this.#scan);
        if (close === -1) {
          this.#scan = Math.max(this.#scan, held.length - TAG_CLOSE.length + 1);
          return true;
        }
        this.#inBlock = false;
        this.#scan = close + TAG_CLOSE.length;
      } else if (isBlank(char)) this.#scan += 1;
      else {
        const next = held.slice(this.#scan, this.#scan + TAG_OPEN.length);
        if (next !== TAG_OPEN) return next.length < TAG_OPEN.length && TAG_OPEN.startsWith(next);
        this.#inBlock = true;
        this.#bodySeen = false;
        this.#scan += TAG_OPEN.length;
      }
    }
    return true;
  }
}

/**
 * The calls a whole answer's words end with (`CallsAfterWords`), and the words before them (their trailing
 * blanks dropped); null when they end with none.
 *
 * @example callsAfterWords('I will list it.\n<tool_call>{"name":"Bash","arguments":{"command":"ls"}}</tool_call>', new Set(['Bash']))
 * // { words: 'I will list it.', calls: [{ name: 'Bash', args: '{"command":"ls"}' }] }
 */
export function callsAfterWords(text: string, offered: OfferedTools): WordsEnd | null {
  if (offered.size === 0) return null;
  const watch = new CallsAfterWords(offered, Number.POSITIVE_INFINITY);
  const words = watch.push(text);
  const end = watch.end();
  return end.calls.length === 0 ? null : { words: (words + end.words).trimEnd(), calls: end.calls };
}
