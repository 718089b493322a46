import { Buffer } from 'node:buffer';
import type { UsageView } from '../../api-types.js';
import type { FailoverSettings } from '../../config/schema.js';
import { frameHasUsefulContent } from '../../gate/answer-rules.js';
import type { FailureInput } from '../../gate/failure-classifier.js';
import {
  endsWithDone,
  isEmptyPart,
  onlyComments,
  sseLines,
  type FrameBatch,
  type StreamPart,
  type UpstreamFrame,
} from '../../gate/stream-part.js';
import { StreamTracker, type MidStreamFailure } from '../../gate/stream-tracker.js';
import type { AttemptGuard } from '../../upstream/attempt-guard.js';
import type { ChunkVerdict } from '../../upstream/upstream-exchange.js';
import type { AnswerSink } from '../answer/answer.js';
import type { ShapingRules } from './shaping-rules.js';
import type { ShapeProblem } from './frame-shaper.js';
import { StreamIdle } from './stream-idle.js';
import { StreamShaper, type Shaped } from './stream-shaper.js';

/** How a relayed stream ended: served (latency to the commit), or why it failed. */
export type StreamOutcome =
  | { ok: true; latencyMs: number; usage: UsageView | null; callsFromText: boolean }
  | { ok: false; failure: FailureInput };

/** A whole answer the response gate passed, as the frames of the stream it stands for. */
export interface GatedFrames {
  frames: readonly UpstreamFrame[];
  /** The upstream bytes they came from (the JSON body's). */
  bytes: number;
  /** The usage the gate read from the body. */
  usage: UsageView | null;
}

/** What a relay works with. */
export interface RelayParts {
  failover: FailoverSettings;
  guard: AttemptGuard;
  answer: AnswerSink;
  /** Milliseconds since the attempt began. */
  elapsed: () => number;
  shaping: ShapingRules;
  /** The stream is over though no chunk said so (the idle limit passed after its ending): end it as at the close. */
  over: () => void;
}

const MID_STREAM: FailureInput = { type: 'transport', kind: 'mid_stream_error' };
const UNFINISHED: FailureInput = { type: 'transport', kind: 'unfinished_stream' };
const NOTHING: Shaped = { out: null, read: null, problem: null };

const emptyStream = (): FailureInput => ({
  type: 'content',
  kind: 'empty_stream',
  errorCode: null,
  detail: 'stream ended before content',
});

/**
 * The streamed half of an attempt: holds the upstream's SSE until the tracker sees real content, then
 * relays what passes (whole lines, or their frames) as it comes through the shaper (which holds tool calls
 * until whole), committing the answer with the first of it that reaches the client and ending the client's
 * stream as the upstream's ends (at its close, or at its `[DONE]`: `over`). Before the tracker's verdict
 * nothing but content counts as progress: the first content must come within the idle limit of the headers,
 * whatever keep-alives, role frames or empty deltas come before it. From that content on, the request's
 * budget no longer runs for the attempt: a tool call held until whole may take as long as it keeps streaming.
 * A request that forces a tool call is the exception: its budget runs on until that call begins, since prose
 * held in its place is no answer.
 * Comments then keep an unfinished answer alive, but not a finished one: when the idle limit passes after
 * the answer's ending with nothing but comments, the stream is over, as at its close (`StreamIdle`).
 */
export class StreamRelay {
  readonly #tracker: StreamTracker;
  readonly #shaper: StreamShaper;
  readonly #guard: AttemptGuard;
  readonly #answer: AnswerSink;
  readonly #idle: StreamIdle;
  readonly #elapsed: () => number;
  /** The tracker saw content (or too much to judge): lines flow through the shaper. */
  #passing = false;
  /** Too much came to judge before any content: the stream passes as it is, its ending unjudged too. */
  #unjudged = false;
  /** The request's budget still runs for this attempt (nothing of the answer has flowed yet). */
  #budgetRuns = true;
  /** Bytes reached the client. */
  #committed = false;
  #latencyMs = 0;
  /** Why a chunk stopped the stream (the upstream is cut after it). */
  #stopped: FailureInput | null = null;
  /** The upstream's `[DONE]` came. */
  #over = false;

  constructor(parts: RelayParts) {
    const { failover, guard } = parts;
    // The gate hands the stream on as the face's encoder reads it: bytes to relay, or the frames it parsed.
    this.#tracker = new StreamTracker({
      holdLimitBytes: failover.holdBufferBytes,
      reading: parts.answer.reads,
    });
    this.#shaper = new StreamShaper(parts.shaping, parts.answer.reads);
    this.#guard = guard;
    this.#answer = parts.answer;
    this.#elapsed = parts.elapsed;
    const idleMs = failover.streamIdleTimeoutMs;
    this.#idle = new StreamIdle({ guard, idleMs, ended: () => this.#ended(), over: parts.over });
    this.#idle.arm();
  }

  /** Bytes reached the client: no failover is possible any more. */
  get committed(): boolean {
    return this.#committed;
  }

  /** Why the last chunk stopped the stream, once one did. */
  get stopped(): FailureInput | null {
    return this.#stopped;
  }

  /**
   * The upstream's `[DONE]` came (sent on, kept back with a silent answer's ending, or before any content):
   * its stream is over, though its connection may stay open, and `onEnd` ends it as at the close.
   */
  get over(): boolean {
    return this.#over || this.#shaper.doneRead || this.#tracker.doneBeforeContent;
  }

  /** One upstream chunk: held and judged before the tracker's verdict, relayed after it. */
  onChunk(chunk: Buffer): ChunkVerdict {
    const tracker = this.#tracker;
    if (this.#passing) {
      // Comments push the idle limit back no more than silence (see StreamIdle). Only a chunk that starts a
      // line can be comments alone: one that goes on with a line begun before is data.
      if (onlyComments(chunk) && tracker.heldBytes() === 0) this.#idle.comment();
      else this.#idle.progress();
      const passed = tracker.pass(chunk);
      return this.#send(passed.forward, passed.failure);
    }
    // Nothing held pushes the idle limit back: keep-alives, role frames and empty deltas are no progress.
    const signal = tracker.hold(chunk);
    if (signal.type === 'pending') return undefined;
    if (signal.type === 'failure') {
      const { kind, errorCode, detail } = signal;
      return this.#stop({ type: 'content', kind, errorCode, detail });
    }
    // Real content (or a stream too strange to judge within the hold cap): its lines go on.
    this.#passing = true;
    this.#unjudged = signal.type === 'overflow';
    const first = tracker.commit();
    // Bytes handed on come with the frames the tracker read from them: the shaper reads them no more.
    this.#shaper.readAlready(tracker.takeReadFrames());
    return this.#send(first.forward, first.failure);
  }

  /** The request's budget stops for this attempt: it may run as long as it keeps flowing. */
  #endBudget(): void {
    this.#budgetRuns = false;
    this.#guard.endBudget();
  }

  /**
   * A whole answer the response gate passed, replayed as the stream the request asked for (the provider
   * ignored `stream: true`). Its frames were made from the object the gate parsed: the tracker has nothing to
   * read, and they take the stream's content rule, then the shaper, as a real stream's frames would.
   */
  replay(gated: GatedFrames): StreamOutcome {
    const { frames } = gated;
    if (!frames.some(frameHasUsefulContent)) return { ok: false, failure: emptyStream() };
    this.#passing = true;
    let part: StreamPart = { frames, bytes: gated.bytes };
    if (this.#answer.reads === 'bytes') {
      // Chat completions gets the lines the frames stand for, which the shaper need not read.
      part = Buffer.from(sseLines(frames));
      this.#shaper.readAlready({ frames, bytes: part.byteLength });
    }
    if (this.#send(part, null) === false) return { ok: false, failure: this.#stopped ?? MID_STREAM };
    return this.#finish(gated.usage);
  }

  /**
   * The upstream's body ended (or its `[DONE]` came): the last line is judged and relayed, and a clean answer
   * ends here. One that sent neither its finish reason nor `[DONE]` was cut on the way (`unfinished_stream`):
   * it fails over unseen if nothing went out yet, else the chain continues it.
   */
  onEnd(): StreamOutcome {
    const last = this.#tracker.end();
    this.#shaper.readAlready(this.#tracker.takeReadFrames());
    // The only content may sit in a last line with no newline after it: still a real answer.
    if (!this.#passing && !last.failure && last.forward) this.#passing = true;
    if (!this.#passing) return { ok: false, failure: emptyStream() };
    if (this.#send(last.forward, last.midStreamFailure) === false)
      return { ok: false, failure: this.#stopped ?? MID_STREAM };
    const lastLine = this.#shaper.lastLine();
    this.#usageRead();
    if (lastLine.problem !== null) return { ok: false, failure: shapeFailure(lastLine.problem) };
    this.#out(lastLine);
    // Without its finish reason or `[DONE]` the answer was cut on the way: what the shaper holds stays.
    if (!this.#unjudged && !this.#ended()) return { ok: false, failure: UNFINISHED };
    return this.#finish(null);
  }

  /** The answer's finish reason or `[DONE]` went out, or is kept back by the shaper. */
  #ended(): boolean {
    return this.#answer.hasEnding() || this.#shaper.endingHeld;
  }

  /** The shaper's last word, then the end of the client's stream; `usage` when known, else the tracker's. */
  #finish(usage: UsageView | null): StreamOutcome {
    const tail = this.#shaper.end();
    this.#usageRead();
    if (tail.problem !== null) return { ok: false, failure: shapeFailure(tail.problem) };
    this.#out(tail);
    // Nothing reached the client: the only content was held back (and let go as nothing).
    if (!this.#committed) return { ok: false, failure: emptyStream() };
    this.#answer.endStream();
    const callsFromText = this.#shaper.callsFromText;
    return { ok: true, latencyMs: this.#latencyMs, usage: usage ?? this.#tracker.usage(), callsFromText };
  }

  /**
   * Lines the tracker let through, shaped and sent; an error frame after them stops the stream: mid-stream
   * once the client has content, else as an error frame before content (nothing was sent: it fails over).
   */
  #send(part: StreamPart | null, errorFrame: MidStreamFailure | null): ChunkVerdict {
    const shaped = part && !isEmptyPart(part) ? this.#shaper.shape(part) : NOTHING;
    this.#usageRead();
    if (shaped.problem !== null) return this.#stop(shapeFailure(shaped.problem));
    // The stream is flowing: only the idle limit applies from here, though a tool call may wait whole in the
    // shaper. Not while the request forces a call none has begun: what is held then is no answer yet.
    if (this.#budgetRuns && !this.#shaper.awaitingForcedCall) this.#endBudget();
    const wait = this.#out(shaped);
    if (errorFrame === null) return wait;
    const { errorCode, detail } = errorFrame;
    if (this.#committed) return this.#stop(MID_STREAM);
    return this.#stop({ type: 'content', kind: 'error_payload', errorCode, detail });
  }

  /** Usage the shaper found in lines it parsed: the tracker takes it, and parses those lines no more. */
  #usageRead(): void {
    const usage = this.#shaper.takeUsage();
    if (usage !== null) this.#tracker.usageRead(usage);
  }

  /** What goes to the client: the first of it commits the answer to this attempt. */
  #out({ out, read }: Shaped): Promise<void> | undefined {
    if (!out || isEmptyPart(out)) return undefined;
    if (!this.#committed) this.#commit();
    // As bytes, a few reads from the end: the lines are not parsed for it.
    if (endsWithDone(out) === true) this.#over = true;
    return this.#forward(out, read);
  }

  #commit(): void {
    this.#endBudget();
    this.#committed = true;
    this.#latencyMs = this.#elapsed();
    this.#answer.commitStream();
  }

  /** A slow client is not a stalled upstream: the idle limit is off while the client drains. */
  #forward(part: StreamPart, read: FrameBatch | null): Promise<void> | undefined {
    const drained = this.#answer.streamPart(part, read);
    if (!drained) return undefined;
    this.#guard.clearPhase();
    return drained.then(() => this.#idle.arm());
  }

  #stop(failure: FailureInput): false {
    this.#stopped = failure;
    return false;
  }
}

/** Why the shaper stopped the answer (a tool call the agent could not run, nothing said), as a content failure. */
function shapeFailure({ kind, detail }: ShapeProblem): FailureInput {
  return { type: 'content', kind, errorCode: null, detail };
}
