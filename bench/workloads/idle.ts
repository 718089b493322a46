import type { Pool } from 'undici';
import { chatBody, timedRequest } from '../load-client.js';
import { childrenRssMb, rssMb } from '../proc.js';

/**
 * How long a process sits without requests before its idle RSS is read. V8's memory reducer, which hands
 * an idle process's spare heap back, runs about 8 s into an idle spell (the daemon here gives back 5–7 MB
 * then: 67 → 60 MB, 75 → 70 MB); an idle daemon in the tray has long been through it.
 */
export const IDLE_SETTLE_MS = 10_000;

export interface IdleSample {
  rssMb: number;
  /** RSS of the process's children (the esbuild service tsx starts), not counted in `rssMb`. */
  childrenMb: number;
}

/** A few requests; resolves with the moment they were done (where the idle spell starts). */
export async function idleStart(pool: Pool, model: string): Promise<number> {
  const body = chatBody(model, false);
  for (let i = 0; i < 10; i += 1) await timedRequest(pool, body);
  return performance.now();
}

/** The RSS of `pid` once `settleMs` have passed since `since` (a `performance.now()` from `idleStart`). */
export async function idleRss(pid: number, since: number, settleMs: number): Promise<IdleSample> {
  const left = since + settleMs - performance.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return { rssMb: rssMb(pid), childrenMb: childrenRssMb(pid) };
}
