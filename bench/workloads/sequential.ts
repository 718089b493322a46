import type { Pool } from 'undici';
import { chatBody, timedRequest } from '../load-client.js';
import { rssMb } from '../proc.js';

export interface SequentialSample {
  total: number;
  checkpoint: number;
  rssAtCheckpointMb: number;
  rssAtEndMb: number;
  errors: number;
}

/** `total` sequential requests; the RSS of `pid` after the first tenth and at the end (a leak shows as growth). */
export async function sequentialRequests(
  pool: Pool,
  model: string,
  total: number,
  pid: number,
): Promise<SequentialSample> {
  const body = chatBody(model, false);
  const checkpoint = Math.round(total / 10);
  let rssAtCheckpointMb = Number.NaN;
  let errors = 0;
  for (let i = 1; i <= total; i += 1) {
    if (!(await timedRequest(pool, body)).ok) errors += 1;
    if (i === checkpoint) rssAtCheckpointMb = rssMb(pid);
  }
  return { total, checkpoint, rssAtCheckpointMb, rssAtEndMb: rssMb(pid), errors };
}
