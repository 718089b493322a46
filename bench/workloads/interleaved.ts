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
 * The order of the `i`-th turn: the targets rotated by `i`, then (for the next as many turns) their reverse
 * rotated, over and over. For three targets each one then runs right after each of the others equally often,
 * across the seams between turns too. A fixed order would hand every target the after-work of the one before
 * it (the relay's stream teardown would always fall on the router's next stream, the router's bookkeeping
 * always on direct's).
 */
export function turnOrder<T>(targets: readonly T[], i: number): T[] {
  const n = targets.length;
  const base = Math.floor(i / n) % 2 === 0 ? [...targets] : [...targets].reverse();
  const shift = i % n;
  return [...base.slice(shift), ...base.slice(0, shift)];
}

/**
 * Single-client workloads, interleaved request by request across the targets, in an order that rotates each
 * turn (direct, relay, router; relay, router, direct; …): on a shared machine, whatever happens during the
 * measurement (another process, a GC left over from the previous workload, a debounced state write) then
 * falls on every target alike instead of on whichever one's block it lands in. Raw samples are returned: the
 * caller pools them over rounds.
 */
export async function measureLatencyInterleaved(
  targets: readonly Target[],
  n: number,
): Promise<Record<TargetName, LatencySamples>> {
  const bodies = targets.map((target) => chatBody(target.model, false));
  const indices = targets.map((_, t) => t);
  const out = {} as Record<TargetName, LatencySamples>;
  for (const target of targets) out[target.name] = { samples: [], errors: 0 };
  for (let i = 0; i < 20; i += 1) {
    for (const [t, target] of targets.entries()) await timedRequest(target.pool, bodies[t] ?? '');
  }
  for (let i = 0; i < n; i += 1) {
    for (const t of turnOrder(indices, i)) {
      const target = targets[t] as Target;
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
  const indices = targets.map((_, t) => t);
  const out = {} as Record<TargetName, StreamSamples>;
  for (const target of targets) out[target.name] = { ttfbs: [], totals: [], errors: 0 };
  for (let i = 0; i < 5; i += 1) {
    for (const [t, target] of targets.entries()) await timedStream(target.pool, bodies[t] ?? '');
  }
  for (let i = 0; i < n; i += 1) {
    for (const t of turnOrder(indices, i)) {
      const target = targets[t] as Target;
      const reply = await timedStream(target.pool, bodies[t] ?? '');
      const mine = out[target.name];
      if (!reply.ok) mine.errors += 1;
      mine.ttfbs.push(reply.ttfbMs);
      mine.totals.push(reply.totalMs);
    }
  }
  return out;
}
