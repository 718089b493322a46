import { chatBody, timedStream, type Target } from '../load-client.js';
import { median } from '../stats.js';

export interface StreamSample {
  ttfb: number;
  total: number;
  errors: number;
}

/** `n` sequential streams of 200 chunks from one client: median time to first byte and to the end, in ms. */
export async function measureStream(target: Target, n: number): Promise<StreamSample> {
  const body = chatBody(target.model, true);
  for (let i = 0; i < 5; i += 1) await timedStream(target.pool, body);
  const ttfb: number[] = [];
  const total: number[] = [];
  let errors = 0;
  for (let i = 0; i < n; i += 1) {
    const reply = await timedStream(target.pool, body);
    if (!reply.ok) errors += 1;
    ttfb.push(reply.ttfbMs);
    total.push(reply.totalMs);
  }
  return { ttfb: median(ttfb), total: median(total), errors };
}
