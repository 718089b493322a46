import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod/v3';
import { JsonStateFile } from './json-state-file.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 678);

const schema = z.strictObject({ count: z.number().int() });

function makeFile(path: string, debounceMs = 20) {
  const logger = recordingLogger();
  const state = { count: 0, snapshots: 0 };
  const time = new TestClock(T0);
  const file = new JsonStateFile<{ count: number }>({
    path,
    schema,
    debounceMs,
    logger,
    time,
    snapshot: () => {
      state.snapshots += 1;
      return { count: state.count };
    },
  });
  return { file, logger, state, time };
}

test('a missing file loads as null without a warning', async () => {
  await withDir(async (dir) => {
    const { file, logger } = makeFile(join(dir, 'none.json'));
    assert.equal(await file.load(), null);
    assert.deepEqual(logger.lines, []);
  });
});

test('many changes within the debounce make one write, never a synchronous one', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'nested', 'state.json');
    const { file, state, time } = makeFile(path, 50);
    for (let i = 1; i <= 25; i += 1) {
      state.count = i;
      file.schedule();
    }
    time.advance(49);
    await assert.rejects(stat(path), { code: 'ENOENT' });
    assert.equal(state.snapshots, 0);
    time.advance(1); // the debounce timer fires: the write starts
    await file.flush(); // queued behind it, with nothing left to write
    assert.equal(state.snapshots, 1);
    assert.equal(time.pending(), 0, 'no second write is scheduled');
    const written: unknown = JSON.parse(await readFile(path, 'utf8'));
    assert.deepEqual(written, { version: 1, savedAt: T0 + 50, count: 25 });
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'nested'))).mode & 0o777, 0o700);
    await file.close();
  });
});

test('flush writes at once; a clean flush writes nothing; close flushes and cancels the timer', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'state.json');
    const { file, state } = makeFile(path, 60_000);
    state.count = 1;
    file.schedule();
    await file.flush();
    assert.equal(state.snapshots, 1);
    await file.flush();
    assert.equal(state.snapshots, 1, 'nothing dirty, nothing written');

    state.count = 2;
    file.schedule();
    await file.close();
    assert.equal(state.snapshots, 2);
    const written = JSON.parse(await readFile(path, 'utf8')) as { count: number };
    assert.equal(written.count, 2);
  });
});

test('concurrent flushes run one after the other and the last state wins', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'state.json');
    const { file, state } = makeFile(path, 60_000);
    state.count = 1;
    file.schedule();
    const first = file.flush();
    // Wait until the first write has taken its snapshot and is on its way to disk.
    while (state.snapshots === 0) await new Promise((resolve) => setImmediate(resolve));
    state.count = 2;
    file.schedule();
    const second = file.flush();
    await Promise.all([first, second]);
    assert.equal(state.snapshots, 2);
    const written = JSON.parse(await readFile(path, 'utf8')) as { count: number };
    assert.equal(written.count, 2);
    await file.close();
  });
});

test('a written file loads back', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'state.json');
    const a = makeFile(path);
    a.state.count = 7;
    a.file.schedule();
    await a.file.close();
    const b = makeFile(path);
    assert.deepEqual(await b.file.load(), { count: 7 });
  });
});

for (const [label, content] of [
  ['unparsable JSON', '{"version": 1, "savedAt": 1, "count": '],
  ['a schema failure', JSON.stringify({ version: 1, savedAt: 1, count: 'many' })],
  ['an unknown version', JSON.stringify({ version: 2, savedAt: 1, count: 1 })],
] as const) {
  test(`${label} is moved aside to *.corrupt-* with a warning, and load returns null`, async () => {
    await withDir(async (dir) => {
      const path = join(dir, 'state.json');
      await writeFile(path, content);
      const { file, logger } = makeFile(path);
      assert.equal(await file.load(), null);
      const aside = `${path}.corrupt-2025-01-02T03-04-05.678Z`;
      assert.deepEqual(await readdir(dir), ['state.json.corrupt-2025-01-02T03-04-05.678Z']);
      assert.equal(await readFile(aside, 'utf8'), content, 'the corrupt copy is kept as it was');
      assert.equal(logger.lines.length, 1);
      assert.match(logger.lines[0] ?? '', /^warn state file .*state\.json .*corrupt-/);
    });
  });
}

test('a failed write is logged, stays dirty and succeeds on a later flush', async () => {
  await withDir(async (dir) => {
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, 'a file where a folder should be');
    const path = join(blocker, 'state.json');
    const { file, logger, state } = makeFile(path, 60_000);
    state.count = 3;
    file.schedule();
    await file.flush();
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0] ?? '', /^error state file .* write failed/);

    await rm(blocker);
    await file.flush();
    const written = JSON.parse(await readFile(path, 'utf8')) as { count: number };
    assert.equal(written.count, 3);
    await file.close();
  });
});

test('load removes temp files a killed write left behind, and keeps the real file and unrelated ones', async () => {
  await withDir(async (dir) => {
    const path = join(dir, 'breakers.json');
    await writeFile(path, JSON.stringify({ version: 1, savedAt: T0, count: 7 }));
    await writeFile(`${path}.2866391747`, '{"version":1,"savedAt":1,"co');
    await writeFile(join(dir, 'history.json.123'), 'other file, other owner');
    await writeFile(`${path}.corrupt-2025-01-02T03-04-05.678Z`, 'kept for the user');
    const { file } = makeFile(path);
    assert.deepEqual(await file.load(), { count: 7 });
    assert.deepEqual((await readdir(dir)).sort(), [
      'breakers.json',
      'breakers.json.corrupt-2025-01-02T03-04-05.678Z',
      'history.json.123',
    ]);
  });
});
