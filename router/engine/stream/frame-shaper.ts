/**
 * What each upstream frame of one attempt becomes on its way to the client: its tool call pieces held until
 * the call is whole and checked, then written as one frame (`CallsOut`); in a continuation, its
 * restated start trimmed (`OverlapTrimmer`), its reasoning left out once the answer has text, and frames
 * that carry nothing (its role frame) dropped; with the tool calls checked, the ending of an answer that has
 * said nothing yet kept back (`EndingHold`; a think block opening the text is not saying something,
 * `ThinkTagReader`); when the request forces a tool call, nothing counts as content before such a call
 * (`ForcedCall`), and an answer that ends without one fails; a fresh answer's first text waits while it may
 * be tool calls written as text, and its words are watched for calls written after them (`TextCallHold`):
 * those go out as calls. The calls a chunk lets go (its own, or what its finish ends) follow what its delta
 * says, as if it had come as its words and then its calls and ending (`chunk-halves`). It reports, per
 * chunk, the frames as written anew, whether any changed and whether content came (the stream shaper
 * decides which bytes go).
 */
import {
  fixedFinishReason,
  FORCED_CALL_MISSING,
  hasText,
  hasUsefulContent,
} from '../../gate/answer-rules.js';
import { textPastThinkBlock, ThinkTagReader } from '../../gate/think-tags.js';
import { isRecord } from '../../gate/safe-json.js';
import type { UpstreamFrame } from '../../gate/stream-part.js';
import type { FrameSink } from '../../faces/translated-stream.js';
import { chunkFrame, type AnswerSoFar, type ChunkBase } from './answer-so-far.js';
import type { ShapingRules } from './shaping-rules.js';
import { OverlapTrimmer } from './overlap-trim.js';
import { CallsOut, carriesCallPieces, type CallsStep } from './calls-out.js';
import { EndingHold } from './ending-hold.js';
import { TextCallHold } from './text-call-hold.js';
import { ForcedCall, type ForcedCallState } from './forced-call.js';
import { endingHalf, wordsHalf } from './chunk-halves.js';

/** Why a shaped stream cannot go on to the agent. */
export interface ShapeProblem {
  kind: 'invalid_tool_call' | 'empty_content' | 'tool_choice_ignored';
  detail: string;
}

/** What the frames of one chunk came to. */
export interface ShapedFrames {
  /** The frames as written anew (used only when `changed`). */
  frames: UpstreamFrame[];
  /** Some frame was changed, dropped or added: the chunk cannot leave as it came. */
  changed: boolean;
  /** Content came (or the answer's ending): what waits for content may go. */
  content: boolean;
  /** Why the answer cannot go on to the agent (a tool call it cannot run, an ending with nothing said). */
  problem: ShapeProblem | null;
}

const FORCED_MISSING: ShapeProblem = { kind: 'tool_choice_ignored', detail: FORCED_CALL_MISSING };

const NOTHING_ASIDE: readonly UpstreamFrame[] = [];

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A delta with any text (whitespace too), reasoning, refusal or tool call in it. */
function carriesContent(delta: Record<string, unknown>): boolean {
  return (
    ['content', 'reasoning_content', 'reasoning', 'refusal'].some((key) => str(delta[key]) !== '') ||
    delta.tool_calls !== undefined ||
    delta.function_call !== undefined
  );
}

/** The answer being continued said something already: text past a think block that opens it, or a tool call. */
function saidSoFar(continuing: AnswerSoFar | null): boolean {
  if (continuing === null) return false;
  const { text } = continuing;
  return continuing.toolCalls > 0 || hasText(textPastThinkBlock(text));
}

/** One attempt's frames, shaped. */
export class FrameShaper implements FrameSink {
  /** The tool calls, held until whole and checked (null: they pass as they come). */
  readonly #calls: CallsOut | null;
  readonly #trim: OverlapTrimmer | null;
  /** The trimmer works on reasoning (the answer so far was only reasoning), else on text. */
  readonly #trimsReasoning: boolean;
  /** A continuation after text: the continuing model's reasoning stays out of the answer. */
  readonly #dropReasoning: boolean;
  readonly #ending: EndingHold;
  /** Reads past a think block opening the text, to see the answer's first words (null: not watched). */
  readonly #think: ThinkTagReader | null;
  readonly #forced: ForcedCall;
  /** A fresh answer's first text, while it may be tool calls written as text (null: not read). */
  readonly #textCalls: TextCallHold | null;
  #base: ChunkBase;
  /** Calls were read from the answer's text. */
  #callsFromText = false;
  #done = false;
  /** Where the frames let go while a chunk closes wait, to follow what its delta says (null: straight out). */
  #aside: UpstreamFrame[] | null = null;
  #chunk: ShapedFrames = { frames: [], changed: false, content: false, problem: null };

  constructor(rules: ShapingRules) {
    const { tools, continuing } = rules;
    this.#calls = tools === null ? null : new CallsOut(tools, rules.mintId, rules.signatures);
    this.#trimsReasoning = continuing !== null && continuing.text === '';
    this.#dropReasoning = continuing !== null && continuing.text !== '';
    this.#trim =
      continuing === null
        ? null
        : new OverlapTrimmer(this.#trimsReasoning ? continuing.reasoning : continuing.text);
    this.#base = continuing?.base ?? { id: 'chatcmpl-fcm', created: 0, model: null };
    // Checked tool calls mean strict validation of one answer: it must say something, as a whole body must.
    const watched = tools !== null && !saidSoFar(continuing);
    this.#ending = new EndingHold(watched);
    this.#think = watched ? new ThinkTagReader() : null;
    // An answer under way committed on its forced call already: its continuation owes none.
    this.#forced = new ForcedCall(continuing === null ? rules.forced : null);
    const readsText = tools !== null && tools.size > 0 && continuing === null;
    this.#textCalls = readsText ? new TextCallHold(tools, rules.holdLimit) : null;
  }

  /** Something is held that only later frames can let go: every chunk must be read. */
  get holding(): boolean {
    return (
      this.#trim !== null ||
      this.#calls?.holding === true ||
      this.#ending.watching ||
      this.#textCalls?.mustSeeNext === true
    );
  }

  /** Not holding, a chunk must still be read when its text has a line break (words watched for calls). */
  get watchesLines(): boolean {
    return this.#textCalls?.watchesLines === true;
  }

  /** The call the request forces: none awaited, its pieces held, or still missing. */
  get forcedCall(): ForcedCallState {
    if (this.#forced.met) return 'none';
    return this.#calls?.holding === true ? 'under_way' : 'missing';
  }

  /** The upstream's `[DONE]` was read here (and sent, or kept back with a silent answer's ending). */
  get doneRead(): boolean {
    return this.#done;
  }

  /** Tool calls were read from the answer's text (`TextCallHold`). */
  get callsFromText(): boolean {
    return this.#callsFromText;
  }

  /** The answer's ending came and is kept back: the stream is over but for what `end` decides. */
  get endingHeld(): boolean {
    return this.#ending.holding;
  }

  /** Starts a chunk. */
  begin(): void {
    this.#chunk = { frames: [], changed: false, content: false, problem: this.#chunk.problem };
  }

  /** What the chunk's frames came to. */
  result(): ShapedFrames {
    return this.#chunk;
  }

  /**
   * The stream ended: a held start of a continuation and held tool calls go now (or fail), then a held
   * ending (or the answer fails for having said nothing).
   */
  end(): void {
    this.#endPieces();
    if (this.#chunk.problem !== null) return;
    const { frames, problem } = this.#ending.end();
    if (problem !== null) this.#chunk.problem = { kind: 'empty_content', detail: problem };
    else if (!this.#forced.met) this.#chunk.problem = FORCED_MISSING;
    else if (frames.length > 0) this.#letGo(frames);
  }

  frame(value: Record<string, unknown>): void {
    if (this.#chunk.problem !== null) return;
    if (typeof value.id === 'string')
      this.#base = { id: value.id, created: value.created, model: value.model };
    const choices = value.choices;
    const choice = Array.isArray(choices) && choices.length === 1 ? (choices[0] as unknown) : null;
    if (!isRecord(choice) || !isRecord(choice.delta)) {
      this.#emit(value, null);
      return;
    }
    const delta = { ...choice.delta };
    const finish = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
    this.#shapeDelta(delta);
    const calls = this.#closing(delta, finish);
    this.#chunk.content ||= this.#forced.met && (hasUsefulContent(delta) || finish !== null);
    if (calls.length > 0) {
      this.#emitHalves(value, choice, delta, { finish, calls });
      return;
    }
    if (this.#keeps(delta) || finish !== null || value.usage != null)
      this.#emit({ ...value, choices: [{ ...choice, delta, ...this.#finishOf(finish) }] }, finish);
    else this.#chunk.changed = true;
  }

  /** A continuation's frames that carry nothing (its role frame) are left out; a fresh answer's stay. */
  #keeps(delta: Record<string, unknown>): boolean {
    return this.#trim === null ? Object.keys(delta).length > 0 : carriesContent(delta);
  }

  /**
   * The delta's call pieces, and at its finish what waits for the answer's end: the frames they let go (calls,
   * and what a hold kept of the text), set aside to follow what the delta itself says.
   */
  #closing(delta: Record<string, unknown>, finish: string | null): readonly UpstreamFrame[] {
    const pieces = this.#calls !== null && carriesCallPieces(delta);
    if (!pieces && finish === null) return NOTHING_ASIDE;
    const aside: UpstreamFrame[] = [];
    this.#aside = aside;
    if (pieces && this.#calls !== null) {
      this.#flushTrim();
      this.#take(this.#calls.takeFrom(delta));
      this.#chunk.changed = true;
    }
    if (finish !== null) {
      this.#endPieces();
      this.#endedWithoutForcedCall();
    }
    this.#aside = null;
    return aside;
  }

  /** A chunk that let calls go, as the two it stands for: what its delta says, the calls, then its ending. */
  #emitHalves(
    value: Record<string, unknown>,
    choice: Record<string, unknown>,
    delta: Record<string, unknown>,
    end: { finish: string | null; calls: readonly UpstreamFrame[] },
  ): void {
    this.#chunk.changed = true;
    if (this.#keeps(delta)) this.#emit(wordsHalf(value, choice, delta), null);
    for (const frame of end.calls) this.#chunk.frames.push(frame);
    if (end.finish !== null || value.usage != null)
      this.#emit(endingHalf(value, choice, this.#finishOf(end.finish)), end.finish);
  }

  done(): void {
    this.#done = true;
    if (this.#chunk.problem !== null) return;
    this.#endPieces();
    this.#endedWithoutForcedCall();
    this.#emit('[DONE]', null);
    this.#chunk.content ||= this.#forced.met;
  }

  /**
   * The answer ended (its finish reason, or `[DONE]`) without the call its request forces: it failed. One
   * that said nothing yet is left to its ending's hold, which `end` judges.
   */
  #endedWithoutForcedCall(): void {
    if (!this.#forced.met && !this.#ending.watching) this.#chunk.problem ??= FORCED_MISSING;
  }

  /** A frame out: kept back with a silent answer's ending (`finish`: its finish reason), or into the chunk. */
  #emit(frame: UpstreamFrame, finish: string | null): void {
    if (this.#ending.keeps(frame, finish)) {
      this.#chunk.changed = true;
      return;
    }
    // Still holding: past the most it keeps, what it kept goes, and the answer passes unjudged.
    if (this.#ending.holding) this.#said();
    this.#out(frame);
  }

  /** A frame into the chunk, or aside while the chunk closes. */
  #out(frame: UpstreamFrame): void {
    (this.#aside ?? this.#chunk.frames).push(frame);
  }

  /** The answer says something: an ending kept back goes first (words after an ending keep their order). */
  #said(): void {
    const held = this.#ending.said();
    if (held !== null) this.#letGo(held);
  }

  #letGo(frames: readonly UpstreamFrame[]): void {
    for (const frame of frames) this.#chunk.frames.push(frame);
    this.#chunk.changed = true;
  }

  /**
   * A finish reason that contradicts the calls that went out (checked calls only, `fixedFinishReason`):
   * `tool_calls` when none did is written as `stop`, as the other faces do; `stop` after calls as `tool_calls`.
   */
  #finishOf(finish: string | null): { finish_reason?: string } {
    const fixed = this.#calls === null ? null : fixedFinishReason(finish, this.#calls.kind);
    if (fixed === null) return {};
    this.#chunk.changed = true;
    return { finish_reason: fixed };
  }

  #shapeDelta(delta: Record<string, unknown>): void {
    if (this.#textCalls?.read(delta) === true) this.#chunk.changed = true;
    const reasoningKey = str(delta.reasoning_content) !== '' ? 'reasoning_content' : 'reasoning';
    const reasoning = str(delta[reasoningKey]);
    if (reasoning !== '') {
      if (this.#dropReasoning) this.#remove(delta, reasoningKey);
      else {
        this.#letGoCalls();
        if (this.#trimsReasoning) this.#trimInto(delta, reasoningKey, reasoning);
      }
    }
    const text = str(delta.content);
    if (this.#saysSomething(text) || hasText(delta.refusal)) this.#said();
    if (text !== '') {
      this.#letGoCalls();
      if (this.#trimsReasoning) this.#flushTrim();
      else this.#trimInto(delta, 'content', text);
    }
  }

  #trimInto(delta: Record<string, unknown>, key: string, text: string): void {
    if (this.#trim === null) return;
    const kept = this.#trim.push(text);
    if (kept === text) return;
    this.#chunk.changed = true;
    if (kept === '') delete delta[key];
    else delta[key] = kept;
  }

  #remove(delta: Record<string, unknown>, key: string): void {
    delete delta[key];
    this.#chunk.changed = true;
  }

  /** Words in a piece of the answer's text: past a think block that opens it, its thoughts are not words. */
  #saysSomething(text: string): boolean {
    if (this.#think === null || !this.#ending.watching || !this.#think.reading) return hasText(text);
    return text !== '' && hasText(this.#think.push(text));
  }

  /** What waits for the answer's end goes now: its first text (or its calls), a think tag's start, a trim, calls. */
  #endPieces(): void {
    this.#endTextCalls();
    this.#endThink();
    this.#flushTrim();
    this.#letGoCalls();
  }

  /** The answer ended while its text waited: calls go as calls, words as words; unreadable markup fails. */
  #endTextCalls(): void {
    const hold = this.#textCalls;
    if (hold?.reading !== true) return;
    const end = hold.end();
    if (end.kind === 'unreadable') this.#chunk.problem ??= { kind: 'invalid_tool_call', detail: end.detail };
    else if (end.kind === 'calls') {
      this.#callsFromText = true;
      if (this.#calls !== null) this.#take(this.#calls.addRead(end.calls));
    } else if (end.text !== '') {
      if (this.#saysSomething(end.text)) this.#said();
      this.#emit(chunkFrame(this.#base, { content: end.text }), null);
      this.#chunk.changed = true;
      this.#chunk.content ||= this.#forced.met;
    }
  }

  /** The text ended: a tag's start the think reader held back (`<th`) was words after all. */
  #endThink(): void {
    const think = this.#think;
    if (think?.reading === true && this.#ending.watching && hasText(think.end())) this.#said();
  }

  /** The held start of a continuation goes out now (trimmed), ahead of what comes next. */
  #flushTrim(): void {
    const rest = this.#trim?.flush() ?? '';
    if (rest === '') return;
    this.#emit(
      chunkFrame(this.#base, { [this.#trimsReasoning ? 'reasoning_content' : 'content']: rest }),
      null,
    );
    this.#chunk.changed = true;
    this.#chunk.content = true;
  }

  #letGoCalls(): void {
    if (this.#calls?.holding) this.#take(this.#calls.letGo());
  }

  /** Calls that went whole go out, each in a frame of its own, after an ending kept back. */
  #take(step: CallsStep): void {
    if (step.out.length > 0) this.#said();
    for (const { name, delta } of step.out) {
      this.#forced.called(name);
      this.#out(chunkFrame(this.#base, delta));
      this.#chunk.changed = true;
      this.#chunk.content ||= this.#forced.met;
    }
    if (step.problem !== null) this.#chunk.problem ??= { kind: 'invalid_tool_call', detail: step.problem };
  }
}
