/**
 * One attempt's tool calls on their way out of a stream: the call pieces of each delta (chat's `tool_calls`,
 * a legacy `function_call`) and calls read from the text are held until whole and checked (`ToolCallHold`),
 * then each goes in a delta of its own, numbered in the order the calls leave, with the provider's additions
 * (`extra_content`: a Gemini thought signature, remembered as it leaves), a legacy call as one. What went out
 * (tool calls, a legacy function call, or none yet) is what the answer's finish reason must say.
 */
import { argumentsText, type CallsKind } from '../../gate/answer-rules.js';
import { isRecord } from '../../gate/safe-json.js';
import type { TextCall } from '../../gate/call-markup.js';
import type { ThoughtSignatures } from '../../upstream/thought-signatures.js';
import { ToolCallHold, type HoldStep, type WholeCall } from './tool-call-hold.js';

/** The calls a step let go, each with the delta that carries it, or why a call cannot go to the agent. */
export interface CallsStep {
  out: { name: string; delta: Record<string, unknown> }[];
  problem: string | null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** True when a delta carries call pieces: a `tool_calls` list, or a legacy `function_call`. */
export const carriesCallPieces = (delta: Record<string, unknown>): boolean =>
  Array.isArray(delta.tool_calls) || isRecord(delta.function_call);

/** One attempt's tool calls, held and written. */
export class CallsOut {
  readonly #hold: ToolCallHold;
  readonly #signatures: ThoughtSignatures | null;
  #count = 0;
  #kind: CallsKind = null;

  /** `offered`: the tools the calls are checked against; `mintId`: an id for a call without one. */
  constructor(offered: ReadonlySet<string>, mintId: () => string, signatures: ThoughtSignatures | null) {
    this.#hold = new ToolCallHold(offered, mintId);
    this.#signatures = signatures;
  }

  /** A call is held (text or an ending lets it go). */
  get holding(): boolean {
    return this.#hold.holding;
  }

  /** The calls that went out: tool calls, a legacy function call, or none yet. */
  get kind(): CallsKind {
    return this.#kind;
  }

  /** Takes a delta's call pieces out of it, in place, into the hold: the calls that went whole meanwhile. */
  takeFrom(delta: Record<string, unknown>): CallsStep {
    const step: CallsStep = { out: [], problem: null };
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((call: unknown, position) =>
        this.#add(step, this.#piece(call, position, false)),
      );
      delete delta.tool_calls;
    }
    if (isRecord(delta.function_call)) {
      this.#add(step, this.#piece({ index: 0, function: delta.function_call }, 0, true));
      delete delta.function_call;
    }
    return step;
  }

  /** Calls read from the answer's text, held as calls that came whole. */
  addRead(calls: readonly TextCall[]): CallsStep {
    const step: CallsStep = { out: [], problem: null };
    for (const [index, { name, args }] of calls.entries())
      this.#add(step, this.#hold.piece(index, null, name, args));
    return step;
  }

  /** Every held call goes now, checked. */
  letGo(): CallsStep {
    const step: CallsStep = { out: [], problem: null };
    this.#add(step, this.#hold.letGo());
    return step;
  }

  #piece(call: unknown, position: number, legacy: boolean): HoldStep {
    if (!isRecord(call)) return { calls: [], problem: null };
    const fn = isRecord(call.function) ? call.function : {};
    const index = typeof call.index === 'number' ? call.index : position;
    const id = str(call.id) || null;
    const extra = isRecord(call.extra_content) ? call.extra_content : null;
    const args = argumentsText(fn.arguments);
    return this.#hold.piece(index, id, str(fn.name) || null, args, { legacy, extra });
  }

  /** A hold step's calls, written, into `step` (nothing more once a call could not go). */
  #add(step: CallsStep, held: HoldStep): void {
    if (step.problem !== null) return;
    for (const call of held.calls) step.out.push({ name: call.name, delta: this.#write(call) });
    step.problem = held.problem;
  }

  /** A whole call as the delta that carries it to the agent; its signature is remembered. */
  #write(call: WholeCall): Record<string, unknown> {
    const fn = { name: call.name, arguments: call.args };
    const index = this.#count;
    this.#count += 1;
    if (call.legacy) {
      this.#kind ??= 'function_call';
      return { function_call: fn };
    }
    this.#kind = 'tool_calls';
    const out: Record<string, unknown> = { index, id: call.id, type: 'function', function: fn };
    if (call.extra !== null) {
      out.extra_content = call.extra;
      this.#signatures?.remember(out);
    }
    return { tool_calls: [out] };
  }
}
