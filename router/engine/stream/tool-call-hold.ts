/**
 * Holds a stream's tool calls until each is whole: the pieces of a call (its id and name first, then its
 * arguments in fragments) are joined, and the call is let go when the stream moves on (another call begins,
 * text follows, a finish reason or the end arrives). A whole call is checked (`toolCallProblem`) before it
 * leaves: the agent gets it in one piece or not at all.
 */
import { MAX_TOOL_ARGUMENTS_CHARS, normalArguments, toolCallProblem } from '../../gate/answer-rules.js';

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
  #open: HeldCall[] = [];
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
   * One piece of call `index`; its id and name come with its first piece. A piece of another call, or one
   * with a new id at the same index (some upstreams number every call 0), lets the calls held before go.
   */
  piece(index: number, id: string | null, name: string | null, args: string, kind: PieceKind = {}): HoldStep {
    let call = this.#open.find((held) => held.index === index);
    let step = NOTHING;
    if (call && id !== null && call.id !== null && id !== call.id) call = undefined;
    if (!call) {
      if (this.#gone.has(index) && id === null && name === null)
        return args.trim() === ''
          ? NOTHING
          : { calls: [], problem: 'a tool call piece after its call ended' };
      step = this.letGo();
      if (step.problem !== null) return step;
      call = { index, id, name, args: '', legacy: kind.legacy ?? false, extra: null };
      this.#open.push(call);
    }
    call.id ??= id;
    call.name ??= name;
    call.extra ??= kind.extra ?? null;
    call.args += args;
    if (call.args.length > MAX_TOOL_ARGUMENTS_CHARS)
      return { calls: step.calls, problem: 'tool call arguments too long' };
    return step;
  }

  /** Lets every held call go, checked, in the order they began. */
  letGo(): HoldStep {
    if (this.#open.length === 0) return NOTHING;
    const calls: WholeCall[] = [];
    for (const held of this.#open) {
      const problem = toolCallProblem(held.name, held.args, this.#offered);
      if (problem !== null) return { calls, problem };
      this.#gone.add(held.index);
      const id = held.id ?? this.#mintId();
      const { legacy, extra } = held;
      calls.push({ id, name: held.name as string, args: normalArguments(held.args), legacy, extra });
    }
    this.#open = [];
    return { calls, problem: null };
  }
}
