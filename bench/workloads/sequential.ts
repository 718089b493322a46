import type { Pool } from 'undici';
import { chatBody, timedRequest } from '../load-client.js';
import { rssMb } from '../proc.js';

/** How many RSS readings the run takes (evenly spaced over its requests). */
const READINGS = 100;

export interface SequentialSample {
  total: number;
  /** The request count the growth is measured from (a tenth of the run: warm-up is over). */
  checkpoint: number;
  rssAtCheckpointMb: number;
  rssAtEndMb: number;
  /** RSS of the daemon after every `total / READINGS` requests: `at` is the request count. */
  readings: { at: number; rssMb: number }[];
  errors: number;
}

/**
 * `total` sequential requests, reading the RSS of `pid` a hundred times along the way. A leak shows as a
 * steady upward trend over the readings; two single readings would instead catch wherever the heap's
 * sawtooth (young-generation fill, old-generation growth and compaction) happens to stand.
 */
export async function sequentialRequests(
  pool: Pool,
  model: string,
  total: number,
  pid: number,
): Promise<SequentialSample> {
  const body = chatBody(model, false);
  const checkpoint = Math.round(total / 10);
  const step = Math.max(1, Math.round(total / READINGS));
  const readings: { at: number; rssMb: number }[] = [];
  let rssAtCheckpointMb = Number.NaN;
  let errors = 0;
  for (let i = 1; i <= total; i += 1) {
    if (!(await timedRequest(pool, body)).ok) errors += 1;
    if (i === checkpoint) rssAtCheckpointMb = rssMb(pid);
    if (i % step === 0) readings.push({ at: i, rssMb: rssMb(pid) });
  }
  return { total, checkpoint, rssAtCheckpointMb, rssAtEndMb: rssMb(pid), readings, errors };
}
