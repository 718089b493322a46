import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A real server answering `GET /health` with `body` (and 404 elsewhere), closed after `run`. */
async function withHealth(body: unknown, run: (url: string) => Promise<void>): Promise<void> {
  const server = http.createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A loopback URL where nothing listens. */
async function silentUrl(): Promise<string> {
  let url = '';
  await withHealth({}, async (open) => {
    url = open;
  });
  return url;
}

/** Writes a lock as another process would have, holding `pid` with `fields` on top. */
async function writeLock(dir: string, pid: number, fields: Record<string, unknown>): Promise<void> {
  const lock = { pid, startedAt: 1, port: null, url: null, nonce: 'theirs', ...fields };
  await writeFile(daemonLockPath(dir), JSON.stringify(lock));
}

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

    await withHealth({ name: 'fcm-router', pid: 4242 }, async (url) => {
      await first.lock.listening(Number(new URL(url).port), url);
      await assert.rejects(
        acquireDaemonLock({ stateDir: dir, pid: 5151, startedAt: 2000, isAlive: alive }),
        (error: unknown) =>
          error instanceof DaemonRunningError &&
          error.holder.url === url &&
          error.state === 'serving' &&
          error.message.includes(`already serves the state folder ${dir} at ${url} (pid 4242): use that one`),
      );
    });
    assert.deepEqual(await readdir(dir), ['daemon.lock'], 'no temp file left by the update');
  });
});

test('a live pid that is not the fcm-router of its lock (nothing listens at its URL, or another router does) loses the lock', async () => {
  await withDir(async (dir) => {
    const nobody = await silentUrl();
    await writeLock(dir, 4242, { port: Number(new URL(nobody).port), url: nobody });
    const first = await acquireDaemonLock({ stateDir: dir, pid: 5151, startedAt: 2, isAlive: alive });
    assert.deepEqual(first.tookOver, {
      pid: 4242,
      startedAt: 1,
      port: Number(new URL(nobody).port),
      url: nobody,
      pidAlive: true,
    });
    assert.equal((await readDaemonLock(dir))?.pid, 5151);

    await withHealth({ name: 'fcm-router', pid: 7777 }, async (url) => {
      await first.lock.listening(Number(new URL(url).port), url);
      const next = await acquireDaemonLock({ stateDir: dir, pid: 6161, startedAt: 3, isAlive: alive });
      assert.equal(next.tookOver?.pid, 5151, 'pid 7777 answers there, so 5151 cannot');
      assert.equal((await readDaemonLock(dir))?.pid, 6161);
    });
  });
});

test('a live holder that cannot be judged keeps its lock, and the refusal names the lock file to remove', async () => {
  await withDir(async (dir) => {
    const lockFile = daemonLockPath(dir);
    const refused = (state: string) => (error: unknown) =>
      error instanceof DaemonRunningError &&
      error.state === state &&
      error.message.includes(`if no fcm-router runs, remove the stale lock ${lockFile}`);
    const acquire = () => acquireDaemonLock({ stateDir: dir, pid: 5151, startedAt: 2, isAlive: alive });

    await withHealth({ hello: 'another program' }, async (url) => {
      await writeLock(dir, 4242, { port: Number(new URL(url).port), url });
      await assert.rejects(acquire(), refused('silent'));
    });
    await writeLock(dir, 4242, {});
    await assert.rejects(acquire(), refused('starting'));
    // Nothing listens while a daemon stops, yet its state is being saved: the mark keeps the lock.
    await writeLock(dir, 4242, { port: 1, url: await silentUrl(), stopping: true });
    await assert.rejects(acquire(), refused('stopping'));
    assert.equal((await readDaemonLock(dir))?.pid, 4242);
  });
});

test('stopping marks the holder’s own lock only', async () => {
  await withDir(async (dir) => {
    const held = await acquireDaemonLock({ stateDir: dir, pid: 4242, startedAt: 1, isAlive: alive });
    await held.lock.stopping();
    assert.equal((await readDaemonLock(dir))?.stopping, true);
    await held.lock.release();
    await writeLock(dir, 5151, {});
    await held.lock.stopping();
    assert.equal((await readDaemonLock(dir))?.stopping, undefined);
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
