import type { Pool } from 'undici';
import { FAILOVER_SET } from '../bench-config.js';
import { EMPTY_USER } from '../fake-upstream-fast.js';
import { chatBody, timedRequest } from '../load-client.js';
import { median } from '../stats.js';

export interface FailoverSample {
  /** Router p50 when the first model answers an empty 200 and the second serves. */
  failoverP50: number;
  /** Router p50 of the same set when the first model serves. */
  servedFirstP50: number;
  /** Requests that did not fail over exactly once, or failed. */
  errors: number;
}

/**
 * Pairs of requests to the failover set: one where the flaky first model serves (which also keeps its
 * breaker CLOSED, so it is tried every time), then one where it answers an empty 200 and the router fails
 * over to the second. Both are timed.
 */
export async function measureFailover(router: Pool, pairs: number): Promise<FailoverSample> {
  const body = chatBody(`fcm:${FAILOVER_SET}`, false);
  const emptyBody = chatBody(`fcm:${FAILOVER_SET}`, false, { user: EMPTY_USER });
  for (let i = 0; i < 10; i += 1) {
    await timedRequest(router, body);
    await timedRequest(router, emptyBody);
  }
  const failover: number[] = [];
  const first: number[] = [];
  let errors = 0;
  for (let i = 0; i < pairs; i += 1) {
    const served = await timedRequest(router, body);
    const failed = await timedRequest(router, emptyBody);
    if (!served.ok || served.headers['x-fcm-v2-attempts'] !== '1') errors += 1;
    if (!failed.ok || failed.headers['x-fcm-v2-attempts'] !== '2') errors += 1;
    first.push(served.ms);
    failover.push(failed.ms);
  }
  return { failoverP50: median(failover), servedFirstP50: median(first), errors };
}
