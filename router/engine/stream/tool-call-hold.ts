/**
 * Holds a stream's tool calls until each is whole: the pieces of a call (its id and name first, then its
 * arguments in fragments) are joined, and the call is let go when the stream moves on (text follows, a
 * finish reason or the end arrives), or sooner, when another call begins and its arguments are whole
 * already. Parallel calls may come interleaved, a piece of one between pieces of another (the chunk format
 * numbers them by `index` for that): each call stays open until then, and they leave in index order. A
 * whole call is checked (`toolCallProblem`) before it leaves: the agent gets it in one piece or not at all.
 */
import { MAX_TOOL_ARGUMENTS_CHARS, normalArguments, toolCallProblem } from '../../gate/answer-rules.js';

/** Calls held open at once at most: a stream that opens more is no set of calls an agent could run. */
export const MAX_OPEN_CALLS = 64;

/** A whole, checked tool call, to go to the agent in one piece. */
export interface WholeCall {
  id: string;
  name: string;
  /** The arguments as JSON (empty ones as `{}`). */
  args: string;
  /** It came as a legacy `function_call` (it goes out as one). */
  legacy: boolean;
  /** The provider's own additions to the call (`extra_content`: Gemini's thought signature), or null. */
  extra: Record<string, unknown> | null;
}

/**
 * What a piece may carry besides its index, id, name and arguments: whether its call came as a legacy
 * `function_call`, and the provider's additions (the call keeps those of its first piece that has any).
 */
export interface PieceKind {
  legacy?: boolean;
  extra?: Record<string, unknown> | null;
}

/** What a step let go: the calls now whole, or why a call cannot go to the agent. */
export interface HoldStep {
  calls: WholeCall[];
  problem: string | null;
}

interface HeldCall {
  index: number;
  id: string | null;
  name: string | null;
  args: string;
  legacy: boolean;
  extra: Record<string, unknown> | null;
}

const NOTHING: HoldStep = { calls: [], problem: null };

/** One attempt's tool calls while they stream. */
export class ToolCallHold {
  readonly #offered: ReadonlySet<string>;
  readonly #mintId: () => string;
  /** The calls held, in index order (calls at one index in the order they began). */
  #open: HeldCall[] = [];
  /** The characters of the held calls' arguments, together: the hold's memory bound. */
  #heldChars = 0;
  /** Indexes of the calls let go already: a piece for one of them came too late. */
  readonly #gone = new Set<number>();

  constructor(offered: ReadonlySet<string>, mintId: () => string) {
    this.#offered = offered;
    this.#mintId = mintId;
  }

  /** A call is held now (text or an ending would let it go). */
  get holding(): boolean {
    return this.#open.length > 0;
  }

  /**
   * One piece of call `index`; its id and name come with its first piece. A new id at an index already held
   * is a new call (some upstreams number every call 0): pieces without an id go to the latest call at their
   * index. When a call begins, the calls before it whose arguments are whole already go.
   */
  piece(index: number, id: string | null, name: string | null, args: string, kind: PieceKind = {}): HoldStep {
    let call = this.#open.findLast((held) => held.index === index);
    let step = NOTHING;
    if (call && id !== null && call.id !== null && id !== call.id) call = undefined;
    if (!call) {
      if (this.#gone.has(index) && id === null && name === null)
        return args.trim() === ''
          ? NOTHING
          : { calls: [], problem: 'a tool call piece after its call ended' };
      step = { calls: this.#letGoRunnable(), problem: null };
      if (this.#open.length >= MAX_OPEN_CALLS)
        return { calls: step.calls, problem: 'too many tool calls at once' };
      call = { index, id, name, args: '', legacy: kind.legacy ?? false, extra: null };
      this.#insert(call);
    }
    call.id ??= id;
    call.name ??= name;
    call.extra ??= kind.extra ?? null;
    call.args += args;
    this.#heldChars += args.length;
    if (this.#heldChars > MAX_TOOL_ARGUMENTS_CHARS)
      return { calls: step.calls, problem: 'tool call arguments too long' };
    return step;
  }

  /** Lets every held call go, checked, in index order. */
  letGo(): HoldStep {
    if (this.#open.length === 0) return NOTHING;
    const calls: WholeCall[] = [];
    for (const held of this.#open) {
      const problem = toolCallProblem(held.name, held.args, this.#offered);
      if (problem !== null) return { calls, problem };
      calls.push(this.#whole(held));
    }
    this.#open = [];
    this.#heldChars = 0;
    return { calls, problem: null };
  }

  /**
   * The first held calls, in order, that the agent can run already; the first that it cannot yet (its
   * arguments still coming, mostly) stays, with those after it. Arguments that do not end as an object does
   * are not parsed: pieces of interleaved calls are looked at only when a call begins, and cheaply.
   */
  #letGoRunnable(): WholeCall[] {
    const calls: WholeCall[] = [];
    for (let held = this.#open[0]; held !== undefined; held = this.#open[0]) {
      if (!endsAsObject(held.args) || toolCallProblem(held.name, held.args, this.#offered) !== null) break;
      calls.push(this.#whole(held));
      this.#open.shift();
      this.#heldChars -= held.args.length;
    }
    return calls;
  }

  /** A held call as it leaves (checked already); its index is gone. */
  #whole(held: HeldCall): WholeCall {
    this.#gone.add(held.index);
    const id = held.id ?? this.#mintId();
    const { legacy, extra } = held;
    return { id, name: held.name as string, args: normalArguments(held.args), legacy, extra };
  }

  /** Holds a new call in index order, after any held at its index. */
  #insert(call: HeldCall): void {
    const at = this.#open.findIndex((held) => held.index > call.index);
    if (at === -1) this.#open.push(call);
    else this.#open.splice(at, 0, call);
  }
}

/** True when `args` end (past blanks) with `}`: they may be a whole object, and are worth parsing. */
function endsAsObject(args: string): boolean {
  for (let i = args.length - 1; i >= 0; i -= 1) {
    const code = args.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return code === 0x7d;
  }
  return false;
}
