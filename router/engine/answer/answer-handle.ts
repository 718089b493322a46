import type { GatedCompletion } from '../../gate/response-gate.js';
import type { FrameBatch, StreamPart, StreamReading } from '../../gate/stream-part.js';
import type { Answer, AnswerSink } from './answer.js';

/**
 * One attempt's own way to the request's answer in a hedged race. The first handle to commit (serve a
 * whole answer or start a stream) owns the answer; every call of the other handles is a no-op from then
 * on, so only the owner's bytes reach the client. `onCommit` runs once, the moment this handle wins.
 */
export class AnswerHandle implements AnswerSink {
  readonly #answer: Answer;
  readonly #model: string;
  readonly #onCommit: () => void;
  #owns = false;

  constructor(answer: Answer, model: string, onCommit: () => void) {
    this.#answer = answer;
    this.#model = model;
    this.#onCommit = onCommit;
  }

  /** The answer was committed to this handle's attempt. */
  get started(): boolean {
    return this.#owns;
  }

  get reads(): StreamReading {
    return this.#answer.reads;
  }

  serveJson(upstreamStatus: number, completion: GatedCompletion): void {
    if (this.#answer.started) return;
    this.#answer.serveJson(upstreamStatus, completion, this.#model);
    this.#won();
  }

  commitStream(): void {
    if (this.#answer.started) return;
    this.#answer.commitStream(this.#model);
    this.#won();
  }

  streamPart(part: StreamPart, read?: FrameBatch | null): Promise<void> | undefined {
    return this.#owns ? this.#answer.streamPart(part, read) : undefined;
  }

  endStream(): void {
    if (this.#owns) this.#answer.endStream();
  }

  hasEnding(): boolean {
    return this.#owns && this.#answer.hasEnding();
  }

  #won(): void {
    // The answer was open before this call: started now, it is this handle's.
    if (!this.#answer.started) return;
    this.#owns = true;
    this.#onCommit();
  }
}
