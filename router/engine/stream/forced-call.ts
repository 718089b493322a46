/**
 * The tool call a request forces (`tool_choice: "required"` or a named function), awaited in its stream.
 * Many free models ignore the choice and answer in prose; an agent or a structured-output library that
 * forced the call cannot use that. So until a whole call to a forced tool goes out, nothing commits: text,
 * reasoning and calls to other tools wait with it in the hold buffer, and an answer that ends without one
 * fails over unseen (`tool_choice_ignored`). Past the hold buffer with no such call under way, the answer
 * fails too: the agent has had nothing yet, and a model that writes that much before the call it was told
 * to make is not making it.
 */

/** Where the forced call stands: none awaited (nothing forced, or made), one's pieces held, or missing. */
export type ForcedCallState = 'none' | 'under_way' | 'missing';

/** What a stream does while nothing has gone out: keep holding, let it go, or fail. */
export type BeforeContent = 'wait' | 'go' | 'fail';

/** Why a stream past its hold buffer without the forced call fails. */
export const FORCED_CALL_LATE = 'the request forces a tool call and none came within the hold buffer';

/**
 * What a stream does before its first content goes out: within the hold buffer it waits; past it, it goes
 * as it is (its content unjudged), unless a forced call is still missing (it fails) or under way (it waits
 * for the call to be whole, within the tool call hold's own bounds).
 *
 * @example beforeContent(true, 'none') // 'go'
 * @example beforeContent(true, 'missing') // 'fail'
 */
export function beforeContent(overLimit: boolean, forced: ForcedCallState): BeforeContent {
  if (!overLimit || forced === 'under_way') return 'wait';
  return forced === 'none' ? 'go' : 'fail';
}

/** One attempt's wait for the call its request forces. */
export class ForcedCall {
  readonly #forced: ReadonlySet<string> | null;
  #met: boolean;

  /** `forced`: the tools of which the answer must call one (null: nothing forced). */
  constructor(forced: ReadonlySet<string> | null) {
    this.#forced = forced;
    this.#met = forced === null;
  }

  /** Nothing is awaited: no call is forced, or one was made. */
  get met(): boolean {
    return this.#met;
  }

  /** A whole call went out: it meets the choice when it calls a forced tool. */
  called(name: string): void {
    if (this.#forced?.has(name) === true) this.#met = true;
  }
}
