/**
 * One daemon per state folder: `<stateDir>/daemon.lock`, created exclusively (`wx`) before anything in the
 * folder is read or written, holding the owner's pid, start time and, once it listens, its port and URL;
 * while it stops, a mark saying so. A lock whose pid is gone (a crash, `kill -9`) is taken over, and so is
 * one whose pid lives but cannot be the owner: nothing listens at the URL it recorded, or another
 * fcm-router does (the pid was reused after a crash or a reboot). Any other holder refuses the newcomer.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod/v3';
import { writeFileAtomically } from '../files/atomic-write.js';
import { createExclusive, processAlive, removeStale } from '../files/exclusive-file.js';
import { probeLockHolder, type HolderAnswer } from './lock-holder.js';
import { DaemonRunningError, daemonLockPath, StateDirError, type LockHolder } from './daemon-lock-errors.js';

const lockSchema = z.object({
  pid: z.number().int().positive(),
  startedAt: z.number(),
  port: z.number().int().min(0).max(65535).nullable(),
  url: z.string().nullable(),
  nonce: z.string(),
  /** Set as the owner starts to stop: its server closes before its state is saved and the lock freed. */
  stopping: z.boolean().optional(),
});

export type DaemonLockInfo = z.infer<typeof lockSchema>;

export {
  DaemonRunningError,
  StateDirError,
  daemonLockPath,
  type HolderState,
  type LockHolder,
} from './daemon-lock-errors.js';
export { processAlive } from '../files/exclusive-file.js';

/** A held lock. */
export interface DaemonLock {
  /** Records where the daemon listens, so a refused newcomer can name it. */
  listening(port: number, url: string): Promise<void>;
  /**
   * Marks the lock before the server closes: a newcomer that finds nothing listening while state is still
   * being saved is then refused instead of taking over. Never throws.
   */
  stopping(): Promise<void>;
  /** Removes the lock if it is still this holder's. Never throws: shutdown stays quiet. */
  release(): Promise<void>;
}

export interface AcquireOptions {
  stateDir: string;
  pid: number;
  startedAt: number;
  /** @default a signal-0 probe of the pid */
  isAlive?: (pid: number) => boolean;
  /** Whether a live holder is the fcm-router its lock says. @default {@link probeLockHolder} */
  answers?: (holder: { pid: number; url: string }) => Promise<HolderAnswer>;
  /** Wall clock for the age of a torn lock file. @default Date.now */
  now?: () => number;
}

/** A lock file that does not parse and is younger than this may be one being written right now. */
const TORN_LOCK_GRACE_MS = 10_000;

function errorReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ? `${code}: ${message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '')}` : String(message);
}

/** The lock of `stateDir`, or null when there is none or it does not parse. */
export async function readDaemonLock(stateDir: string): Promise<DaemonLockInfo | null> {
  const text = await readFile(daemonLockPath(stateDir), 'utf8').catch(() => null);
  return text === null ? null : parseLock(text);
}

function parseLock(text: string): DaemonLockInfo | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A lock taken over: who held it, and whether its pid still ran (then as some other process). */
export type TookOver = LockHolder & { pidAlive: boolean };

const NOBODY: LockHolder = { pid: null, startedAt: null, port: null, url: null };

interface Judging {
  stateDir: string;
  file: string;
  attempt: number;
  isAlive: (pid: number) => boolean;
  answers: NonNullable<AcquireOptions['answers']>;
  now: () => number;
}

/**
 * What to do about a lock another holds: take it over (its holder), `wait` (a torn file may be one being
 * written), or refuse (throws {@link DaemonRunningError}).
 */
async function judgeLock(text: string, judging: Judging): Promise<TookOver | 'wait'> {
  const { stateDir } = judging;
  const holder = parseLock(text);
  if (holder === null) {
    const age = judging.now() - ((await stat(judging.file).catch(() => null))?.mtimeMs ?? 0);
    if (age >= TORN_LOCK_GRACE_MS) return { ...NOBODY, pidAlive: false };
    if (judging.attempt >= 3) throw new DaemonRunningError(stateDir, NOBODY);
    return 'wait';
  }
  const named: LockHolder = {
    pid: holder.pid,
    startedAt: holder.startedAt,
    port: holder.port,
    url: holder.url,
  };
  if (!judging.isAlive(holder.pid)) return { ...named, pidAlive: false };
  if (holder.stopping === true) throw new DaemonRunningError(stateDir, named, 'stopping');
  if (holder.url === null) throw new DaemonRunningError(stateDir, named, 'starting');
  const answer = await judging.answers({ pid: holder.pid, url: holder.url });
  if (answer === 'gone') return { ...named, pidAlive: true };
  throw new DaemonRunningError(stateDir, named, answer === 'serving' ? 'serving' : 'silent');
}

/**
 * Takes the state folder's lock, creating the folder (0700) if needed.
 *
 * @throws {DaemonRunningError} a live fcm-router holds it, or may.
 * @throws {StateDirError} the folder cannot be created or written.
 */
export async function acquireDaemonLock(
  options: AcquireOptions,
): Promise<{ lock: DaemonLock; tookOver: TookOver | null }> {
  const { stateDir, pid, startedAt } = options;
  const file = daemonLockPath(stateDir);
  const judging = {
    stateDir,
    file,
    isAlive: options.isAlive ?? processAlive,
    answers: options.answers ?? ((holder) => probeLockHolder(holder)),
    now: options.now ?? Date.now,
  };
  const mine: DaemonLockInfo = {
    pid,
    startedAt,
    port: null,
    url: null,
    nonce: randomBytes(12).toString('hex'),
  };
  let tookOver: TookOver | null = null;
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    for (let attempt = 0; ; attempt++) {
      if (await createExclusive(file, `${JSON.stringify(mine)}\n`)) break;
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null) continue; // released between our create and read: try again
      const verdict = await judgeLock(text, { ...judging, attempt });
      if (verdict === 'wait') {
        await sleep(100);
        continue;
      }
      tookOver = verdict;
      await removeStale(file, text);
    }
  } catch (error) {
    if (error instanceof DaemonRunningError) throw error;
    throw new StateDirError(stateDir, errorReason(error));
  }
  return { tookOver, lock: heldLock(file, mine) };
}

/** The handle of the lock `mine` describes; each change first checks the file is still ours. */
function heldLock(file: string, mine: DaemonLockInfo): DaemonLock {
  const ours = async (): Promise<boolean> => (await readDaemonLock(path.dirname(file)))?.nonce === mine.nonce;
  // Replaced by rename: the lock file exists at every moment, so exclusivity holds throughout.
  const rewrite = () => writeFileAtomically(file, `${JSON.stringify(mine)}\n`, { mode: 0o600 });
  return {
    async listening(port, url) {
      if (!(await ours())) return;
      Object.assign(mine, { port, url });
      await rewrite();
    },
    async stopping() {
      if (!(await ours().catch(() => false))) return;
      mine.stopping = true;
      await rewrite().catch(() => undefined);
    },
    async release() {
      if (await ours().catch(() => false)) await unlink(file).catch(() => undefined);
    },
  };
}
