import { chatBody, timedRequest, type Target } from '../load-client.js';
import { quantile } from '../stats.js';

export interface LatencySample {
  p50: number;
  p99: number;
  errors: number;
}

/** `n` sequential non-stream requests from one client (after a short warm-up): p50 and p99 in ms. */
export async function measureLatency(target: Target, n: number): Promise<LatencySample> {
  const body = chatBody(target.model, false);
  for (let i = 0; i < 20; i += 1) await timedRequest(target.pool, body);
  const samples: number[] = [];
  let errors = 0;
  for (let i = 0; i < n; i += 1) {
    const reply = await timedRequest(target.pool, body);
    if (!reply.ok) errors += 1;
    samples.push(reply.ms);
  }
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), errors };
}
