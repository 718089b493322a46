import type { UsageView } from '../api-types.js';
import type { FailoverSettings } from '../config/schema.js';
import type { FailureInput } from '../gate/failure-classifier.js';
import { StreamTracker } from '../gate/stream-tracker.js';
import type { AttemptGuard } from '../upstream/attempt-guard.js';
import type { ChunkVerdict } from '../upstream/upstream-exchange.js';
import type { AnswerSink } from './answer.js';

/** How a relayed stream ended: served (latency to the commit), or why it failed. */
export type StreamOutcome =
  { ok: true; latencyMs: number; usage: UsageView | null } | { ok: false; failure: FailureInput };

const MID_STREAM: FailureInput = { type: 'transport', kind: 'mid_stream_error' };

/**
 * The streamed half of an attempt: holds the upstream's SSE until the tracker sees real content, then
 * commits the answer and relays whole lines as they come, ending the client's stream as the upstream's
 * ends. Before the commit only data lines count as progress: a stream of keep-alive comments is a stall.
 */
export class StreamRelay {
  readonly #tracker: StreamTracker;
  readonly #guard: AttemptGuard;
  readonly #answer: AnswerSink;
  readonly #idleMs: number;
  readonly #elapsed: () => number;
  #committed = false;
  #latencyMs = 0;
  /** Why a chunk stopped the stream (the upstream is cut after it). */
  #stopped: FailureInput | null = null;

  constructor(failover: FailoverSettings, guard: AttemptGuard, answer: AnswerSink, elapsed: () => number) {
    this.#tracker = new StreamTracker({ holdLimitBytes: failover.holdBufferBytes });
    this.#guard = guard;
    this.#answer = answer;
    this.#idleMs = failover.streamIdleTimeoutMs;
    this.#elapsed = elapsed;
    guard.phase('stream_stall', this.#idleMs);
  }

  /** Bytes reached the client: no failover is possible any more. */
  get committed(): boolean {
    return this.#committed;
  }

  /** Why the last chunk stopped the stream, once one did. */
  get stopped(): FailureInput | null {
    return this.#stopped;
  }

  /** One upstream chunk: held and judged before the commit, relayed after it. */
  onChunk(chunk: Buffer): ChunkVerdict {
    const tracker = this.#tracker;
    if (this.#committed) {
      this.#guard.touch();
      const passed = tracker.pass(chunk);
      const wait = this.#forward(passed.forward);
      return passed.failure ? this.#stop(MID_STREAM) : wait;
    }
    const dataBefore = tracker.dataLinesSeen();
    const signal = tracker.hold(chunk);
    if (tracker.dataLinesSeen() > dataBefore) this.#guard.touch();
    if (signal.type === 'pending') return undefined;
    if (signal.type === 'failure') {
      const { kind, errorCode, detail } = signal;
      return this.#stop({ type: 'content', kind, errorCode, detail });
    }
    // Real content (or a stream too strange to judge within the hold cap): commit to this model.
    this.#commit();
    const first = tracker.commit();
    const wait = this.#forward(first.forward);
    return first.failure ? this.#stop(MID_STREAM) : wait;
  }

  /** The upstream's body ended: the last line is judged and relayed, and a clean answer ends here. */
  onEnd(): StreamOutcome {
    const last = this.#tracker.end();
    // The only content may sit in a last line with no newline after it: still a real answer.
    if (!this.#committed && !last.failure && last.forward) this.#commit();
    if (!this.#committed) {
      const detail = 'stream ended before content';
      return { ok: false, failure: { type: 'content', kind: 'empty_stream', errorCode: null, detail } };
    }
    this.#forward(last.forward);
    if (last.midStreamFailure) return { ok: false, failure: MID_STREAM };
    this.#answer.endStream();
    return { ok: true, latencyMs: this.#latencyMs, usage: this.#tracker.usage() };
  }

  #commit(): void {
    this.#guard.endBudget();
    this.#committed = true;
    this.#latencyMs = this.#elapsed();
    this.#answer.commitStream();
  }

  /** A slow client is not a stalled upstream: the idle limit is off while the client drains. */
  #forward(bytes: Uint8Array | null): Promise<void> | undefined {
    if (!bytes || bytes.byteLength === 0) return undefined;
    const drained = this.#answer.streamLines(bytes);
    if (!drained) return undefined;
    const guard = this.#guard;
    guard.clearPhase();
    return drained.then(() => guard.phase('stream_stall', this.#idleMs));
  }

  #stop(failure: FailureInput): false {
    this.#stopped = failure;
    return false;
  }
}
