import type { UsageView } from '../api-types.js';
import type { FailoverSettings } from '../config/schema.js';
import type { FailureInput } from '../gate/failure-classifier.js';
import { StreamTracker, type EndResult } from '../gate/stream-tracker.js';
import type { Clock } from '../state/clock.js';
import type { AttemptGuard } from '../upstream/attempt-guard.js';
import type { ChunkVerdict, UpstreamExchange, UpstreamHead } from '../upstream/upstream-exchange.js';

/** Where a streamed answer goes once it has shown real content. */
export interface StreamSink {
  /**
   * Called once the request is on the upstream's socket, while the upstream computes: builds what a served
   * answer will need (its headers), so that none of it sits between the upstream's bytes and the client's.
   */
  prepare(): void;
  /**
   * Sends a served JSON answer whole (as 200), with the decision headers of this attempt's success with the
   * upstream's `status`.
   */
  sendJson(status: number, body: Buffer | string): void;
  /** Writes the response head (200, SSE headers, decision headers as known now). */
  commit(): void;
  /** Writes bytes; returns a promise only when the client must drain first (backpressure). */
  write(chunk: Uint8Array): Promise<void> | undefined;
  /**
   * Ends the client's stream once the answer is whole: the client is done before the request's
   * bookkeeping (breaker, stats, history) runs, not after it.
   */
  end(): void;
}

/** What the stream of one attempt needs besides its exchange. */
export interface StreamInput {
  failover: FailoverSettings;
  clock: Clock;
  sink: StreamSink;
}

/** A served stream (its latency is to the commit), or why it failed. */
export type StreamOutcome =
  { ok: true; latencyMs: number; usage: UsageView | null } | { ok: false; failure: FailureInput };

/**
 * The streamed half of an attempt: holds the stream until the tracker sees real content, then commits and
 * pipes the rest byte for byte, ending the client's stream as the upstream's ends. Built while the upstream
 * is working on the request (once it is on the socket, before its head), so none of this setup sits between
 * the upstream's first bytes and the client's.
 */
export class StreamAttempt {
  readonly #input: StreamInput;
  readonly #guard: AttemptGuard;
  readonly #started: number;
  readonly #tracker: StreamTracker;
  #committed = false;
  #latencyMs = 0;
  /** Set when a chunk ends the attempt; the stream is cut after it. */
  #outcome: FailureInput | null = null;
  /** The client's drain the last forwarded bytes wait on (awaited before the attempt returns). */
  #pending: Promise<void> | undefined;
  /** The last line's verdict, once the body has ended. */
  #last: EndResult | null = null;

  constructor(input: StreamInput, guard: AttemptGuard, started: number) {
    this.#input = input;
    this.#guard = guard;
    this.#started = started;
    this.#tracker = new StreamTracker({ holdLimitBytes: input.failover.holdBufferBytes });
  }

  /** Bytes reached the client: no failover is possible any more. */
  get committed(): boolean {
    return this.#committed;
  }

  /**
   * Asks the exchange to start this stream inside its head callback when the head is `accept`ed, so the
   * first chunks are judged (and committed) as they arrive; `run` then carries on with that stream.
   */
  startEarly(exchange: UpstreamExchange, accept: (head: UpstreamHead) => boolean): void {
    exchange.streamEarly(accept, this.#onChunk, this.#finish);
  }

  /** Pipes the exchange's SSE body (its head is a 2xx `text/event-stream`) to the client. */
  async run(exchange: UpstreamExchange): Promise<StreamOutcome> {
    this.#guard.phase('stream_stall', this.#input.failover.streamIdleTimeoutMs);
    await exchange.stream(this.#onChunk, this.#finish);
    if (this.#pending) await this.#pending;
    if (this.#outcome) return { ok: false, failure: this.#outcome };
    const end = this.#finish();
    if (!this.#committed) {
      const failure: FailureInput = {
        type: 'content',
        kind: 'empty_stream',
        errorCode: null,
        detail: 'stream ended before content',
      };
      return { ok: false, failure };
    }
    if (this.#pending) await this.#pending;
    if (end.midStreamFailure) return { ok: false, failure: { type: 'transport', kind: 'mid_stream_error' } };
    return { ok: true, latencyMs: this.#latencyMs, usage: this.#tracker.usage() };
  }

  readonly #onChunk = (chunk: Buffer): ChunkVerdict => {
    this.#guard.touch();
    const tracker = this.#tracker;
    if (this.#committed) {
      const passed = tracker.pass(chunk);
      const wait = this.#forward(passed.forward);
      return passed.failure ? this.#stop({ type: 'transport', kind: 'mid_stream_error' }) : wait;
    }
    const signal = tracker.hold(chunk);
    if (signal.type === 'pending') return undefined;
    if (signal.type === 'failure')
      return this.#stop({
        type: 'content',
        kind: signal.kind,
        errorCode: signal.errorCode,
        detail: signal.detail,
      });
    // Real content (or a stream too strange to judge within the hold cap): commit to this model.
    this.#commit();
    const first = tracker.commit();
    const wait = this.#forward(first.forward);
    return first.failure ? this.#stop({ type: 'transport', kind: 'mid_stream_error' }) : wait;
  };

  /** Judges and forwards the last line; a clean answer's stream is ended here, before any bookkeeping. */
  readonly #finish = (): EndResult => {
    if (this.#last) return this.#last;
    const last = this.#tracker.end();
    this.#last = last;
    // The only content may sit in a last line with no newline after it: still a real answer.
    if (!this.#committed && !last.failure && last.forward) this.#commit();
    if (!this.#committed) return last;
    const wait = this.#forward(last.forward);
    if (!last.midStreamFailure) {
      const { sink } = this.#input;
      if (wait) void wait.then(() => sink.end());
      else sink.end();
    }
    return last;
  };

  #commit(): void {
    this.#guard.endBudget();
    this.#committed = true;
    this.#latencyMs = this.#input.clock() - this.#started;
    this.#input.sink.commit();
  }

  /** A slow client is not a stalled upstream: the idle limit is off while we wait for the client to drain. */
  #forward(bytes: Uint8Array | null): Promise<void> | undefined {
    if (!bytes || bytes.byteLength === 0) return undefined;
    const drained = this.#input.sink.write(bytes);
    if (!drained) return undefined;
    const guard = this.#guard;
    guard.clearPhase();
    const idleMs = this.#input.failover.streamIdleTimeoutMs;
    this.#pending = drained.then(() => guard.phase('stream_stall', idleMs));
    return this.#pending;
  }

  #stop(failure: FailureInput): false {
    this.#outcome = failure;
    return false;
  }
}
