import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { systemTime } from '../state/clock.js';
import { deferred, ioTurns, within } from '../test-support/deferred.js';
import { TestClock } from '../test-support/test-clock.js';
import { HEARTBEAT_MS, judgeWriterLock, STALE_WRITER_LOCK_MS, withWriterLock } from './writer-lock.js';

test('a lock is waited for while its live holder is young, and taken over when its holder is gone or it is old', () => {
  const alive = (): boolean => true;
  const gone = (): boolean => false;
  assert.equal(judgeWriterLock(42, 0, alive), 'wait');
  assert.equal(judgeWriterLock(42, 0, gone), 'take');
  assert.equal(judgeWriterLock(null, 0, gone), 'wait', 'one being written names no holder yet');
  assert.equal(judgeWriterLock(42, STALE_WRITER_LOCK_MS, alive), 'take');
  assert.equal(judgeWriterLock(null, STALE_WRITER_LOCK_MS, alive), 'take');
});

test(
  'a lock that cannot be read is judged by its age, not retried at once for ever',
  { timeout: 10_000 },
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-writer-lock-'));
    try {
      const file = path.join(dir, 'config.json');
      // A folder where the lock file should be: it exists, and reading it fails.
      await mkdir(`${file}.lock`);
      const time = { ...systemTime, now: (): number => Date.now() + 2 * STALE_WRITER_LOCK_MS };
      assert.equal(await withWriterLock(file, () => Promise.resolve('written'), { time }), 'written');
      assert.ok(!(await readdir(dir)).includes('config.json.lock'), 'the lock is released after the write');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);

/** Resolves once the lock's mtime reads `at` (its holder's mark landed): a count of I/O turns, not a time. */
async function markedAt(lock: string, at: number): Promise<void> {
  while (Math.abs((await stat(lock)).mtimeMs - at) >= 1) await ioTurns(1);
}

test('a live writer whose write outlasts the stale age keeps its lock: it marks it live as it writes', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-writer-lock-'));
  try {
    const file = path.join(dir, 'config.json');
    const lock = `${file}.lock`;
    const time = new TestClock();
    const start = time.now();
    const order: string[] = [];
    const inside = deferred();
    const letGo = deferred();
    const slow = withWriterLock(
      file,
      async () => {
        inside.resolve();
        await letGo.promise;
        order.push('slow writer done');
      },
      { time },
    );
    await within(inside.promise, 'the first writer to hold the lock');
    // The write takes longer than the stale age: its marks keep the lock young.
    // One mark at a time, each landed before the next: marks in flight together could land out of order.
    let marked = 0;
    while (marked + HEARTBEAT_MS <= STALE_WRITER_LOCK_MS) {
      time.advance(HEARTBEAT_MS);
      marked += HEARTBEAT_MS;
      await within(markedAt(lock, start + marked), 'the holder marking its lock');
    }
    time.advance(STALE_WRITER_LOCK_MS + HEARTBEAT_MS / 2 - marked);
    const judged = deferred();
    const isAlive = (): boolean => {
      judged.resolve();
      return true;
    };
    const second = withWriterLock(file, () => Promise.resolve(order.push('second writer')), {
      time,
      isAlive,
    });
    // The second writer judges the lock (a young lock's holder is asked after), or takes it over and writes.
    await within(Promise.race([judged.promise, second]), 'the second writer judging the lock');
    assert.deepEqual(order, [], 'the second writer waits for the first');
    letGo.resolve();
    await within(Promise.all([slow, second]), 'both writes');
    assert.deepEqual(order, ['slow writer done', 'second writer']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
