import type { GatedCompletion } from '../../gate/response-gate.js';
import type { FrameBatch, StreamPart, StreamReading } from '../../gate/stream-part.js';
import type { Answer, AnswerSink } from './answer.js';

/**
 * One attempt's way to the request's answer when it may not be the one writing it: its bytes reach the
 * client only once the answer is its own (`own`), and every call before that is a no-op. How an attempt
 * comes to own the answer is the subclass's: by winning a race, or by a continuation's first new content.
 */
export abstract class OwnedSink implements AnswerSink {
  protected readonly answer: Answer;
  protected readonly model: string;
  #owns = false;

  constructor(answer: Answer, model: string) {
    this.answer = answer;
    this.model = model;
  }

  /** The answer is this attempt's. */
  get started(): boolean {
    return this.#owns;
  }

  get reads(): StreamReading {
    return this.answer.reads;
  }

  abstract serveJson(upstreamStatus: number, completion: GatedCompletion): void;
  abstract commitStream(): void;

  streamPart(part: StreamPart, read?: FrameBatch | null): Promise<void> | undefined {
    return this.#owns ? this.answer.streamPart(part, read) : undefined;
  }

  endStream(): void {
    if (this.#owns) this.answer.endStream();
  }

  hasEnding(): boolean {
    return this.#owns && this.answer.hasEnding();
  }

  /** From now on the attempt's calls reach the answer. */
  protected own(): void {
    this.#owns = true;
  }
}

/**
 * One attempt's own way to the request's answer in a hedged race. The first handle to commit (serve a
 * whole answer or start a stream) owns the answer; every call of the other handles is a no-op from then
 * on, so only the owner's bytes reach the client. `onCommit` runs once, the moment this handle wins.
 */
export class AnswerHandle extends OwnedSink {
  readonly #onCommit: () => void;

  constructor(answer: Answer, model: string, onCommit: () => void) {
    super(answer, model);
    this.#onCommit = onCommit;
  }

  serveJson(upstreamStatus: number, completion: GatedCompletion): void {
    if (this.answer.started) return;
    this.answer.serveJson(upstreamStatus, completion, this.model);
    this.#won();
  }

  commitStream(): void {
    if (this.answer.started) return;
    this.answer.commitStream(this.model);
    this.#won();
  }

  #won(): void {
    // The answer was open before this call: started now, it is this handle's.
    if (!this.answer.started) return;
    this.own();
    this.#onCommit();
  }
}

/**
 * A continuing attempt's way to the answer, which is streaming already: nothing of it reaches the client
 * before its first content, and then the answer is this attempt's to finish (the trace says so).
 */
export class ContinuationSink extends OwnedSink {
  /** Not for a stream: the attempt replays a whole answer as the stream it stands for. Ends the answer as it stands. */
  serveJson(): void {
    this.commitStream();
    this.endStream();
  }

  commitStream(): void {
    if (this.started) return;
    this.own();
    this.answer.trace.continuedBy(this.model);
  }
}
