import type { UsageView } from '../api-types.js';
import type { FailoverSettings } from '../config/schema.js';
import type { FailureInput } from '../gate/failure-classifier.js';
import { StreamTracker, type EndResult } from '../gate/stream-tracker.js';
import type { Clock } from '../state/clock.js';
import type { AttemptGuard } from '../upstream/attempt-guard.js';
import type { ChunkVerdict, UpstreamExchange } from '../upstream/upstream-exchange.js';

/** Where a streamed answer goes once it has shown real content. */
export interface StreamSink {
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
 * pipes the rest byte for byte, ending the client's stream as the upstream's ends.
 */
export async function pipeStream(
  input: StreamInput,
  exchange: UpstreamExchange,
  guard: AttemptGuard,
  started: number,
  setCommitted: (value: boolean) => void,
): Promise<StreamOutcome> {
  const tracker = new StreamTracker({ holdLimitBytes: input.failover.holdBufferBytes });
  const idleMs = input.failover.streamIdleTimeoutMs;
  guard.phase('stream_stall', idleMs);
  let committed = false;
  let latencyMs = 0;
  /** Set when a chunk ends the attempt; the stream is cut after it. */
  let outcome: FailureInput | null = null;
  /** The client's drain the last forwarded bytes wait on (awaited before the attempt returns). */
  let pending: Promise<void> | undefined;
  const commit = (): void => {
    guard.endBudget();
    committed = true;
    setCommitted(true);
    latencyMs = input.clock() - started;
    input.sink.commit();
  };
  // A slow client is not a stalled upstream: the idle limit is off while we wait for the client to drain.
  const forward = (bytes: Uint8Array | null): Promise<void> | undefined => {
    if (!bytes || bytes.byteLength === 0) return undefined;
    const drained = input.sink.write(bytes);
    if (!drained) return undefined;
    guard.clearPhase();
    pending = drained.then(() => guard.phase('stream_stall', idleMs));
    return pending;
  };
  const stop = (failure: FailureInput): false => {
    outcome = failure;
    return false;
  };
  const onChunk = (chunk: Buffer): ChunkVerdict => {
    guard.touch();
    if (committed) {
      const passed = tracker.pass(chunk);
      const wait = forward(passed.forward);
      return passed.failure ? stop({ type: 'transport', kind: 'mid_stream_error' }) : wait;
    }
    const signal = tracker.hold(chunk);
    if (signal.type === 'pending') return undefined;
    if (signal.type === 'failure')
      return stop({ type: 'content', kind: signal.kind, errorCode: signal.errorCode, detail: signal.detail });
    // Real content (or a stream too strange to judge within the hold cap): commit to this model.
    commit();
    const first = tracker.commit();
    const wait = forward(first.forward);
    return first.failure ? stop({ type: 'transport', kind: 'mid_stream_error' }) : wait;
  };

  /** The last line's verdict, once the body has ended. */
  let last: EndResult | null = null;
  /** Judges and forwards the last line; a clean answer's stream is ended here, before any bookkeeping. */
  const finish = (): EndResult => {
    if (last) return last;
    last = tracker.end();
    // The only content may sit in a last line with no newline after it: still a real answer.
    if (!committed && !last.failure && last.forward) commit();
    if (!committed) return last;
    const wait = forward(last.forward);
    if (!last.midStreamFailure) {
      if (wait) void wait.then(() => input.sink.end());
      else input.sink.end();
    }
    return last;
  };

  await exchange.stream(onChunk, finish);
  if (pending) await pending;
  if (outcome) return { ok: false, failure: outcome };
  const end = finish();
  if (!committed) {
    const failure: FailureInput = {
      type: 'content',
      kind: 'empty_stream',
      errorCode: null,
      detail: 'stream ended before content',
    };
    return { ok: false, failure };
  }
  if (pending) await pending;
  if (end.midStreamFailure) return { ok: false, failure: { type: 'transport', kind: 'mid_stream_error' } };
  return { ok: true, latencyMs, usage: tracker.usage() };
}
