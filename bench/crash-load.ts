/**
 * The crash test's load and what it checks against: clients that record when each answer was read, a
 * wait for the daemon to save one of them, and which answered requests a saved snapshot must hold.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';

/** A running load. */
export interface Load {
  /** Request id → `Date.now()` when its whole answer had been read; grows while the load runs. */
  answered: ReadonlyMap<string, number>;
  /** Settles with `answered` once every client has stopped (the signal aborted or the daemon is gone). */
  finished: Promise<ReadonlyMap<string, number>>;
}

/** Sends chat requests from `clients` connections until `signal` aborts or the daemon is gone. */
export function startLoad(url: string, prefix: string, clients: number, signal: AbortSignal): Load {
  const answered = new Map<string, number>();
  const pool = new Pool(url, { connections: clients });
  let n = 0;
  const client = async (): Promise<void> => {
    while (!signal.aborted) {
      const id = `${prefix}-${n}`;
      n += 1;
      try {
        const res = await pool.request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': id },
          body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
        });
        await res.body.text();
        answered.set(id, Date.now());
      } catch {
        return; // the daemon is gone
      }
    }
  };
  const finished = Promise.all(Array.from({ length: clients }, client)).then(async () => {
    await pool.destroy();
    return answered;
  });
  return { answered, finished };
}

/** The request ids in a history.json, or null while there is none (it is replaced whole, by rename). */
async function savedIds(file: string): Promise<Set<string> | null> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as { entries?: { requestId?: unknown }[] };
    return new Set((saved.entries ?? []).map((entry) => String(entry.requestId)));
  } catch {
    return null;
  }
}

/**
 * Waits until `historyFile` holds one of the requests in `answered`, which shows the daemon saving under
 * this load: true then, false if `signal` aborts first.
 */
export async function untilSaved(
  historyFile: string,
  answered: ReadonlyMap<string, number>,
  signal: AbortSignal,
): Promise<boolean> {
  while (!signal.aborted) {
    const ids = await savedIds(historyFile);
    if (ids && [...answered.keys()].some((id) => ids.has(id))) return true;
    await delay(10);
  }
  return false;
}

/**
 * The requests a snapshot taken at `savedAt` should hold but does not. It must hold every request answered
 * before it was taken, except: the newest `inFlight` of them, whose entries the daemon may record just
 * after sending the answer (one per client at most), those past `retained`, which the ring may have
 * dropped for newer ones, and those read less than `graceMs` before it.
 */
export function missingFromSnapshot(
  answered: ReadonlyMap<string, number>,
  snapshot: { savedAt: number; ids: readonly string[] },
  limits: { inFlight: number; retained: number; graceMs?: number },
): string[] {
  const kept = new Set(snapshot.ids);
  // Ranked among every answer before the snapshot: the ring's `retained` counts them all.
  const before = [...answered].filter(([, at]) => at < snapshot.savedAt).sort((a, b) => b[1] - a[1]);
  const cutoff = snapshot.savedAt - (limits.graceMs ?? 0);
  return before
    .slice(limits.inFlight, limits.retained)
    .filter(([id, at]) => at < cutoff && !kept.has(id))
    .map(([id]) => id);
}
