import { chatBody, timedRequest, timedStream, type Target, type TargetName } from '../load-client.js';

/** One target's single-client latencies of one round, in ms. */
export interface LatencySamples {
  samples: number[];
  errors: number;
}

/** One target's single-client streams of one round: time to first byte and to the end, in ms. */
export interface StreamSamples {
  ttfbs: number[];
  totals: number[];
  errors: number;
}

/**
 * Single-client workloads, interleaved request by request across the targets (direct, relay, router,
 * direct, …): on a shared machine, whatever happens during the measurement (another process, a GC left
 * over from the previous workload, a debounced state write) then falls on every target alike instead of on
 * whichever one's block it lands in. Raw samples are returned: the caller pools them over rounds.
 */
export async function measureLatencyInterleaved(
  targets: readonly Target[],
  n: number,
): Promise<Record<TargetName, LatencySamples>> {
  const bodies = targets.map((target) => chatBody(target.model, false));
  const out = {} as Record<TargetName, LatencySamples>;
  for (const target of targets) out[target.name] = { samples: [], errors: 0 };
  for (let i = 0; i < 20; i += 1) {
    for (const [t, target] of targets.entries()) await timedRequest(target.pool, bodies[t] ?? '');
  }
  for (let i = 0; i < n; i += 1) {
    for (const [t, target] of targets.entries()) {
      const reply = await timedRequest(target.pool, bodies[t] ?? '');
      const mine = out[target.name];
      if (!reply.ok) mine.errors += 1;
      mine.samples.push(reply.ms);
    }
  }
  return out;
}

/** `n` streams of 200 chunks per target, interleaved stream by stream: each stream's TTFB and total time. */
export async function measureStreamInterleaved(
  targets: readonly Target[],
  n: number,
): Promise<Record<TargetName, StreamSamples>> {
  const bodies = targets.map((target) => chatBody(target.model, true));
  const out = {} as Record<TargetName, StreamSamples>;
  for (const target of targets) out[target.name] = { ttfbs: [], totals: [], errors: 0 };
  for (let i = 0; i < 5; i += 1) {
    for (const [t, target] of targets.entries()) await timedStream(target.pool, bodies[t] ?? '');
  }
  for (let i = 0; i < n; i += 1) {
    for (const [t, target] of targets.entries()) {
      const reply = await timedStream(target.pool, bodies[t] ?? '');
      const mine = out[target.name];
      if (!reply.ok) mine.errors += 1;
      mine.ttfbs.push(reply.ttfbMs);
      mine.totals.push(reply.totalMs);
    }
  }
  return out;
}
