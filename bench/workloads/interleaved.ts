import { chatBody, timedRequest, timedStream, type Target, type TargetName } from '../load-client.js';
import { median, quantile } from '../stats.js';
import type { LatencySample } from './latency.js';
import type { StreamSample } from './stream.js';

/**
 * Single-client workloads, interleaved request by request across the targets (direct, relay, router,
 * direct, …): on a shared machine, whatever happens during the measurement (another process, a GC left
 * over from the previous workload, a debounced state write) then falls on every target alike instead of on
 * whichever one's block it lands in.
 */
export async function measureLatencyInterleaved(
  targets: readonly Target[],
  n: number,
): Promise<Record<TargetName, LatencySample & { samples: number[] }>> {
  const bodies = targets.map((target) => chatBody(target.model, false));
  const samples = targets.map((): number[] => []);
  const errors = targets.map(() => 0);
  for (let i = 0; i < 20; i += 1) {
    for (const [t, target] of targets.entries()) await timedRequest(target.pool, bodies[t] ?? '');
  }
  for (let i = 0; i < n; i += 1) {
    for (const [t, target] of targets.entries()) {
      const reply = await timedRequest(target.pool, bodies[t] ?? '');
      if (!reply.ok) errors[t] = (errors[t] ?? 0) + 1;
      samples[t]?.push(reply.ms);
    }
  }
  const out = {} as Record<TargetName, LatencySample & { samples: number[] }>;
  for (const [t, target] of targets.entries()) {
    const values = samples[t] ?? [];
    out[target.name] = {
      p50: quantile(values, 0.5),
      p99: quantile(values, 0.99),
      errors: errors[t] ?? 0,
      samples: values,
    };
  }
  return out;
}

/** `n` streams of 200 chunks per target, interleaved stream by stream: each stream's TTFB and total time. */
export async function measureStreamInterleaved(
  targets: readonly Target[],
  n: number,
): Promise<Record<TargetName, StreamSample & { ttfbs: number[]; totals: number[] }>> {
  const bodies = targets.map((target) => chatBody(target.model, true));
  const ttfb = targets.map((): number[] => []);
  const total = targets.map((): number[] => []);
  const errors = targets.map(() => 0);
  for (let i = 0; i < 5; i += 1) {
    for (const [t, target] of targets.entries()) await timedStream(target.pool, bodies[t] ?? '');
  }
  for (let i = 0; i < n; i += 1) {
    for (const [t, target] of targets.entries()) {
      const reply = await timedStream(target.pool, bodies[t] ?? '');
      if (!reply.ok) errors[t] = (errors[t] ?? 0) + 1;
      ttfb[t]?.push(reply.ttfbMs);
      total[t]?.push(reply.totalMs);
    }
  }
  const out = {} as Record<TargetName, StreamSample & { ttfbs: number[]; totals: number[] }>;
  for (const [t, target] of targets.entries()) {
    const ttfbs = ttfb[t] ?? [];
    const totals = total[t] ?? [];
    out[target.name] = { ttfb: median(ttfbs), total: median(totals), errors: errors[t] ?? 0, ttfbs, totals };
  }
  return out;
}
