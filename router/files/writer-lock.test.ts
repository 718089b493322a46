import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { judgeWriterLock, STALE_WRITER_LOCK_MS, withWriterLock } from './writer-lock.js';

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
      const later = (): number => Date.now() + 2 * STALE_WRITER_LOCK_MS;
      assert.equal(await withWriterLock(file, () => Promise.resolve('written'), { now: later }), 'written');
      assert.ok(!(await readdir(dir)).includes('config.json.lock'), 'the lock is released after the write');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
