/**
 * Follows the tool calls of a chat-completions stream by their `index`, for the stream writers. A call's id
 * and name come with its first piece; a piece at the same index with a different upstream id is a new call
 * (some upstreams number every call 0); arguments that come before the name wait for it, since a
 * `tool_use` block or `function_call` item cannot start without one.
 */

/** One tool call of the stream. */
export interface TrackedCall {
  /** The upstream's id, or one minted for a call that came without. */
  readonly id: string;
  name: string | null;
  started: boolean;
}

interface CallState extends TrackedCall {
  upstreamId: boolean;
  pending: string;
}

/** What to do with a piece: start the call (when `start`), then send `args` if it is the open one. */
export interface CallStep {
  call: TrackedCall;
  start: boolean;
  args: string;
}

export class ToolCallTracker {
  readonly #calls = new Map<number, CallState>();
  readonly #mintId: () => string;

  constructor(mintId: () => string) {
    this.#mintId = mintId;
  }

  /** Reads one piece of call `index`; null while the call still waits for its name. */
  piece(index: number, id: string | null, name: string | null, args: string): CallStep | null {
    let call = this.#calls.get(index);
    if (call && id !== null && call.upstreamId && id !== call.id) call = undefined;
    if (!call) {
      call = { id: id ?? this.#mintId(), upstreamId: id !== null, name, pending: '', started: false };
      this.#calls.set(index, call);
    } else if (call.name === null && name !== null) call.name = name;
    if (call.started) return { call, start: false, args };
    if (call.name === null) {
      call.pending += args;
      return null;
    }
    call.started = true;
    const waiting = call.pending;
    call.pending = '';
    return { call, start: true, args: waiting + args };
  }
}
