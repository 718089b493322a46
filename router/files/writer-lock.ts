/**
 * The lock the writers of one file take around check-then-replace (`<file>.lock`, created exclusively,
 * holding the writer's pid), so that two processes (two CLI commands, a CLI command and the daemon) cannot
 * both find the file as they read it and then replace each other's change. It is held for one write only,
 * and its holder marks it live (its mtime) every {@link HEARTBEAT_MS} while it writes: one whose pid is gone,
 * or not marked for {@link STALE_WRITER_LOCK_MS} (a crashed writer whose pid another process now has), is
 * left over from a crash and taken over; a live one is waited for, however long its write takes.
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat, unlink, utimes } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod/v3';
import type { Time } from '../state/clock.js';
import { createExclusive, processAlive, removeStale } from './exclusive-file.js';

/** A lock its holder has not marked live for this long is a crashed writer's. */
export const STALE_WRITER_LOCK_MS = 10_000;
/** How often a holder marks its lock live: several marks fit in the stale age, so a late one does no harm. */
export const HEARTBEAT_MS = STALE_WRITER_LOCK_MS / 4;
/** How often a waiting writer tries again. */
const RETRY_MS = 15;

const lockSchema = z.object({ pid: z.number().int().positive(), nonce: z.string() });

export interface WriterLockOptions {
  /** @default {@link processAlive} */
  isAlive?: (pid: number) => boolean;
  /**
   * The time a lock's age is measured on (against its file's mtime, which the holder's marks set from it),
   * and the holder's marks run on.
   */
  time: Pick<Time, 'now' | 'setInterval' | 'clearInterval'>;
}

/**
 * What a writer does about a lock another holds (`pid`: who, null when its file does not parse yet), its
 * file `ageMs` old: `take` it over (a crashed writer's) or `wait`. Pure.
 */
export function judgeWriterLock(
  pid: number | null,
  ageMs: number,
  isAlive: (pid: number) => boolean,
): 'take' | 'wait' {
  if (ageMs >= STALE_WRITER_LOCK_MS) return 'take';
  // A lock that does not parse yet is one being written right now.
  if (pid === null) return 'wait';
  return isAlive(pid) ? 'wait' : 'take';
}

function holderOf(text: string): number | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.pid : null;
  } catch {
    return null;
  }
}

async function take(lock: string, mine: string, options: WriterLockOptions): Promise<void> {
  const isAlive = options.isAlive ?? processAlive;
  const now = options.time.now;
  for (;;) {
    if (await createExclusive(lock, mine)) return;
    const made = await stat(lock).catch(() => null);
    // Released between our create and look: try again at once.
    if (made === null) continue;
    // One that cannot be read (another user's, say) names no holder: it is judged by its age alone.
    const text = await readFile(lock, 'utf8').catch(() => '');
    if (judgeWriterLock(holderOf(text), now() - made.mtimeMs, isAlive) === 'take')
      await removeStale(lock, text);
    else await sleep(RETRY_MS);
  }
}

/** Marks the lock live (its mtime `at`), while it is still this writer's. */
async function markLive(lock: string, mine: string, at: number): Promise<void> {
  if ((await readFile(lock, 'utf8').catch(() => null)) !== mine) return;
  await utimes(lock, at / 1000, at / 1000).catch(() => undefined);
}

/** Removes the lock if it is still this writer's (not taken over as stale meanwhile). */
async function release(lock: string, mine: string): Promise<void> {
  if ((await readFile(lock, 'utf8').catch(() => null)) === mine) await unlink(lock).catch(() => undefined);
}

/**
 * Runs `body` holding `<file>.lock`, marked live while `body` runs, waiting while another live writer holds
 * it. The lock is released however `body` ends.
 */
export async function withWriterLock<T>(
  file: string,
  body: () => Promise<T>,
  options: WriterLockOptions,
): Promise<T> {
  const lock = `${file}.lock`;
  const mine = `${JSON.stringify({ pid: process.pid, nonce: randomBytes(9).toString('hex') })}\n`;
  await take(lock, mine, options);
  const { time } = options;
  const marks = time.setInterval(() => void markLive(lock, mine, time.now()), HEARTBEAT_MS);
  try {
    return await body();
  } finally {
    time.clearInterval(marks);
    await release(lock, mine);
  }
}
