/**
 * One daemon per state folder: `<stateDir>/daemon.lock`, created exclusively (`wx`) before anything in the
 * folder is read or written, holding the owner's pid, start time and, once it listens, its port and URL.
 * A lock whose pid is gone (a crash, `kill -9`) is taken over; a live one refuses the newcomer.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod/v3';

const lockSchema = z.object({
  pid: z.number().int().positive(),
  startedAt: z.number(),
  port: z.number().int().min(0).max(65535).nullable(),
  url: z.string().nullable(),
  nonce: z.string(),
});

export type DaemonLockInfo = z.infer<typeof lockSchema>;

/** Who holds a lock; fields are null when the lock file could not be read whole. */
export interface LockHolder {
  pid: number | null;
  startedAt: number | null;
  port: number | null;
  url: string | null;
}

/** A live daemon already owns the state folder. */
export class DaemonRunningError extends Error {
  readonly code = 'FCM_DAEMON_RUNNING';
  constructor(
    readonly stateDir: string,
    readonly holder: LockHolder,
  ) {
    const where =
      holder.url !== null
        ? `at ${holder.url} (pid ${holder.pid})`
        : `(pid ${holder.pid ?? 'unknown'}, starting)`;
    super(
      `another fcm-router already serves the state folder ${stateDir} ${where}: use that one, stop it with "fcm-router stop", or choose another folder with --state-dir`,
    );
    this.name = 'DaemonRunningError';
  }
}

/** The state folder cannot be created or written. */
export class StateDirError extends Error {
  readonly code = 'FCM_STATE_DIR';
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`cannot write to the state folder ${dir} (${reason}): ${advice(reason)}`);
    this.name = 'StateDirError';
  }
}

function advice(reason: string): string {
  const choose = 'or choose another folder with --state-dir or FCM_ROUTER_STATE_DIR';
  if (reason.startsWith('ENOSPC') || reason.startsWith('EDQUOT')) return `free some disk space, ${choose}`;
  if (reason.startsWith('EROFS')) return `it is on a read-only file system: ${choose}`;
  if (reason.startsWith('ENOTDIR') || reason.startsWith('EEXIST'))
    return `a file stands where the folder should be: move it, ${choose}`;
  return `make it writable by this user, ${choose}`;
}

/** A held lock. */
export interface DaemonLock {
  /** Records where the daemon listens, so a refused newcomer can name it. */
  listening(port: number, url: string): Promise<void>;
  /** Removes the lock if it is still this holder's. Never throws: shutdown stays quiet. */
  release(): Promise<void>;
}

export interface AcquireOptions {
  stateDir: string;
  pid: number;
  startedAt: number;
  /** @default a signal-0 probe of the pid */
  isAlive?: (pid: number) => boolean;
  /** Wall clock for the age of a torn lock file. @default Date.now */
  now?: () => number;
}

/** A lock file that does not parse and is younger than this may be one being written right now. */
const TORN_LOCK_GRACE_MS = 10_000;

export function daemonLockPath(stateDir: string): string {
  return path.join(stateDir, 'daemon.lock');
}

/** True while a process with this pid exists (EPERM: it exists, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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

async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Moves a stale lock out of the way. Another newcomer may have replaced it between our read and the
 * rename; then the file moved aside is not the one judged stale, and it is put back.
 */
async function removeStale(file: string, judged: string): Promise<void> {
  const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch {
    return; // gone already: someone else removed it
  }
  const moved = await readFile(aside, 'utf8').catch(() => judged);
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/**
 * Takes the state folder's lock, creating the folder (0700) if needed.
 *
 * @throws {DaemonRunningError} a live process holds it.
 * @throws {StateDirError} the folder cannot be created or written.
 */
export async function acquireDaemonLock(
  options: AcquireOptions,
): Promise<{ lock: DaemonLock; tookOver: LockHolder | null }> {
  const { stateDir, pid, startedAt } = options;
  const isAlive = options.isAlive ?? processAlive;
  const now = options.now ?? Date.now;
  const file = daemonLockPath(stateDir);
  const mine: DaemonLockInfo = {
    pid,
    startedAt,
    port: null,
    url: null,
    nonce: randomBytes(12).toString('hex'),
  };
  let tookOver: LockHolder | null = null;
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o700 });
    for (let attempt = 0; ; attempt++) {
      if (await createExclusive(file, `${JSON.stringify(mine)}\n`)) break;
      const text = await readFile(file, 'utf8').catch(() => null);
      if (text === null) continue; // released between our create and read: try again
      const holder = parseLock(text);
      if (holder !== null && isAlive(holder.pid)) throw new DaemonRunningError(stateDir, holder);
      if (holder === null) {
        const age = now() - ((await stat(file).catch(() => null))?.mtimeMs ?? 0);
        if (age < TORN_LOCK_GRACE_MS) {
          if (attempt >= 3) {
            throw new DaemonRunningError(stateDir, { pid: null, startedAt: null, port: null, url: null });
          }
          await sleep(100);
          continue;
        }
      }
      tookOver = holder
        ? { pid: holder.pid, startedAt: holder.startedAt, port: holder.port, url: holder.url }
        : { pid: null, startedAt: null, port: null, url: null };
      await removeStale(file, text);
    }
  } catch (error) {
    if (error instanceof DaemonRunningError) throw error;
    throw new StateDirError(stateDir, errorReason(error));
  }

  const ours = async (): Promise<boolean> => (await readDaemonLock(stateDir))?.nonce === mine.nonce;
  return {
    tookOver,
    lock: {
      async listening(port, url) {
        if (!(await ours())) return;
        Object.assign(mine, { port, url });
        // Replaced by rename: the lock file exists at every moment, so exclusivity holds throughout.
        await writeFileAtomic(file, `${JSON.stringify(mine)}\n`, { mode: 0o600 });
      },
      async release() {
        if (await ours().catch(() => false)) await unlink(file).catch(() => undefined);
      },
    },
  };
}
