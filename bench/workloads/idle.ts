import type { Pool } from 'undici';
import { chatBody, timedRequest } from '../load-client.js';
import { childrenRssMb, settledRssMb } from '../proc.js';

export interface IdleSample {
  rssMb: number;
  /** RSS of the process's children (the esbuild service tsx starts), not counted in `rssMb`. */
  childrenMb: number;
}

/** A few requests, then `settleMs` of rest; the RSS of `pid` after that. */
export async function idleRss(pool: Pool, model: string, pid: number, settleMs: number): Promise<IdleSample> {
  const body = chatBody(model, false);
  for (let i = 0; i < 10; i += 1) await timedRequest(pool, body);
  const rss = await settledRssMb(pid, settleMs);
  return { rssMb: rss, childrenMb: childrenRssMb(pid) };
}
