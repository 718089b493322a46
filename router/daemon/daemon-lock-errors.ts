/** The refusals of the state folder's lock (`daemon.lock`): another daemon holds it, or it cannot be written. */
import path from 'node:path';

/** Where the lock of `stateDir` is. */
export function daemonLockPath(stateDir: string): string {
  return path.join(stateDir, 'daemon.lock');
}

/** Who holds a lock; fields are null when the lock file could not be read whole. */
export interface LockHolder {
  pid: number | null;
  startedAt: number | null;
  port: number | null;
  url: string | null;
}

/**
 * What is known of a live lock holder: it answers at its URL (`serving`), has no URL yet (`starting`), is
 * stopping, or does not answer there in time (`silent`: hung, or an address that cannot be reached).
 */
export type HolderState = 'serving' | 'starting' | 'stopping' | 'silent';

/** A live daemon already owns the state folder. */
export class DaemonRunningError extends Error {
  readonly code = 'FCM_DAEMON_RUNNING';
  constructor(
    readonly stateDir: string,
    readonly holder: LockHolder,
    readonly state: HolderState = holder.url !== null ? 'serving' : 'starting',
  ) {
    const pid = holder.pid ?? 'unknown';
    const choose = 'or choose another folder with --state-dir';
    // Only a holder that answered is surely a daemon: the lock of one that did not may have outlived it.
    const held = {
      serving: '',
      starting: 'still starting',
      stopping: 'stopping',
      silent: `which does not answer at ${holder.url}`,
    }[state];
    super(
      state === 'serving'
        ? `another fcm-router already serves the state folder ${stateDir} at ${holder.url} (pid ${pid}): use that one, stop it with "fcm-router stop", ${choose}`
        : `the state folder ${stateDir} is locked by fcm-router pid ${pid}, ${held}: try again in a moment; if no fcm-router runs, remove the stale lock ${daemonLockPath(stateDir)}, ${choose}`,
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
