import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  acquireDaemonLock,
  DaemonRunningError,
  daemonLockPath,
  processAlive,
  readDaemonLock,
  StateDirError,
} from './daemon-lock.js';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-lock-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const alive = (): boolean => true;
const dead = (): boolean => false;

test('the first daemon takes the lock (0600, its pid and start); a second is refused, naming the first and its URL', async () => {
  await withDir(async (dir) => {
    const first = await acquireDaemonLock({ stateDir: dir, pid: 4242, startedAt: 1000, isAlive: alive });
    assert.equal(first.tookOver, null);
    assert.equal((await stat(daemonLockPath(dir))).mode & 0o777, 0o600);
    assert.deepEqual(
      { ...(await readDaemonLock(dir)), nonce: undefined },
      { pid: 4242, startedAt: 1000, port: null, url: null, nonce: undefined },
    );

    await assert.rejects(
      acquireDaemonLock({ stateDir: dir, pid: 5151, startedAt: 2000, isAlive: alive }),
      (error: unknown) =>
        error instanceof DaemonRunningError &&
        error.holder.pid === 4242 &&
        /pid 4242/.test(error.message) &&
        /starting/.test(error.message),
    );

    await first.lock.listening(19281, 'http://127.0.0.1:19281');
    await assert.rejects(
      acquireDaemonLock({ stateDir: dir, pid: 5151, startedAt: 2000, isAlive: alive }),
      (error: unknown) =>
        error instanceof DaemonRunningError &&
        error.holder.url === 'http://127.0.0.1:19281' &&
        /already serves .* at http:\/\/127\.0\.0\.1:19281 \(pid 4242\)/.test(error.message),
    );
    assert.deepEqual(await readdir(dir), ['daemon.lock'], 'no temp file left by the update');
  });
});

test('a lock left by a dead process is taken over and reported; releasing removes only one’s own lock', async () => {
  await withDir(async (dir) => {
    const crashed = await acquireDaemonLock({ stateDir: dir, pid: 7, startedAt: 1, isAlive: alive });
    await crashed.lock.listening(19280, 'http://127.0.0.1:19280');
    const next = await acquireDaemonLock({ stateDir: dir, pid: 8, startedAt: 2, isAlive: dead });
    assert.equal(next.tookOver?.pid, 7);
    assert.equal(next.tookOver?.url, 'http://127.0.0.1:19280');
    assert.equal((await readDaemonLock(dir))?.pid, 8);

    // The crashed one's handle no longer owns the file: releasing it leaves the new holder's lock alone.
    await crashed.lock.release();
    assert.equal((await readDaemonLock(dir))?.pid, 8);
    await next.lock.release();
    assert.equal(await readDaemonLock(dir), null);
    assert.deepEqual(await readdir(dir), []);
  });
});

test('a torn lock file (a crash between create and write) is taken over once it is old', async () => {
  await withDir(async (dir) => {
    await writeFile(daemonLockPath(dir), '{"pid": 12');
    const young = acquireDaemonLock({
      stateDir: dir,
      pid: 9,
      startedAt: 3,
      isAlive: alive,
      now: () => Date.now(),
    });
    await assert.rejects(young, DaemonRunningError, 'a fresh unreadable lock may be one being written');
    const later = await acquireDaemonLock({
      stateDir: dir,
      pid: 9,
      startedAt: 3,
      isAlive: alive,
      now: () => Date.now() + 60_000,
    });
    assert.equal(later.tookOver?.pid, null);
    assert.equal((await readDaemonLock(dir))?.pid, 9);
  });
});

test('a state folder that cannot be written is a StateDirError naming the folder and what to do', async () => {
  await withDir(async (dir) => {
    // Root ignores file modes, so the folder is made unusable by a file standing where it should be.
    const blocker = path.join(dir, 'not-a-folder');
    await writeFile(blocker, 'x');
    const stateDir = path.join(blocker, 'state');
    await assert.rejects(
      acquireDaemonLock({ stateDir, pid: 1, startedAt: 1, isAlive: alive }),
      (error: unknown) =>
        error instanceof StateDirError &&
        error.dir === stateDir &&
        error.message.includes(stateDir) &&
        /--state-dir/.test(error.message),
    );
    assert.equal(await readFile(blocker, 'utf8'), 'x');
  });
});

test('processAlive: this process lives, a pid past the limit does not', () => {
  assert.equal(processAlive(process.pid), true);
  assert.equal(processAlive(2 ** 30), false);
});
