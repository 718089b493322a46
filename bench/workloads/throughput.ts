import {
  chatBody,
  closedLoop,
  timedRequest,
  timedStream,
  type LoopResult,
  type Target,
} from '../load-client.js';
import { STREAM_CHUNKS } from '../fake-upstream-fast.js';

export interface RateSample {
  /** Requests (or chunks) per second. */
  rate: number;
  errors: number;
  /** Requests (or streams) completed or failed. */
  requests: number;
}

/** Non-stream requests per second from `concurrency` clients over `durationMs`. */
export async function measureThroughput(
  target: Target,
  concurrency: number,
  durationMs: number,
): Promise<RateSample> {
  const body = chatBody(target.model, false);
  await closedLoop(concurrency, 200, async () => (await timedRequest(target.pool, body)).ok);
  const run = await closedLoop(
    concurrency,
    durationMs,
    async () => (await timedRequest(target.pool, body)).ok,
  );
  return { rate: (run.done * 1000) / run.ms, errors: run.failed, requests: run.done + run.failed };
}

/** A stream workload's rate, and the streams it sent (the warm-up's among them): what its cost divides by. */
export interface StreamRateSample extends RateSample {
  sent: number;
}

/** SSE chunks per second delivered to `concurrency` streaming clients over `durationMs`. */
export async function measureStreamThroughput(
  target: Target,
  concurrency: number,
  durationMs: number,
): Promise<StreamRateSample> {
  const body = chatBody(target.model, true);
  const warm = await closedLoop(concurrency, 200, async () => (await timedStream(target.pool, body)).ok);
  const run = await closedLoop(
    concurrency,
    durationMs,
    async () => (await timedStream(target.pool, body)).ok,
  );
  return rateOfStreams(run, warm);
}

/** Chunks per second of a closed loop of streams, and the streams sent (the warm-up's among them). */
export function rateOfStreams(run: LoopResult, warm: LoopResult): StreamRateSample {
  const requests = run.done + run.failed;
  return {
    rate: (run.done * STREAM_CHUNKS * 1000) / run.ms,
    errors: run.failed,
    requests,
    sent: requests + warm.done + warm.failed,
  };
}
