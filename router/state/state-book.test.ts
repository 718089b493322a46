import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod/v3';
import { CLOSE_WRITES, StateBook, type StateBookOptions } from './state-book.js';
import { STALE_TEMP_MS } from '../files/atomic-write.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

const DEBOUNCE_MS = 40;
const schema = z.strictObject({ count: z.number().int().min(0) });
type CountFile = z.output<typeof schema>;

/** The smallest book: one count, restored as it was saved. */
class CountBook extends StateBook<CountFile> {
  count = 0;
  restores = 0;
  snapshots = 0;

  constructor(options: StateBookOptions) {
    super(options, schema);
  }

  add(): void {
    this.set(this.count + 1);
  }

  set(count: number): void {
    this.count = count;
    this.changed();
  }

  protected snapshot(): CountFile {
    this.snapshots += 1;
    return { count: this.count };
  }

  protected restore(data: CountFile): void {
    this.restores += 1;
    this.count = data.count;
  }
}

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 678);

function makeBook(file: string, debounceMs = DEBOUNCE_MS) {
  const time = new TestClock(T0);
  const logger = recordingLogger();
  const book = new CountBook({ file, time, debounceMs, logger });
  return { book, time, logger };
}

async function savedCount(file: string): Promise<unknown> {
  const saved = JSON.parse(await readFile(file, 'utf8')) as { count?: unknown };
  return saved.count;
}

test('a saved book is restored through restore()', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    await writeFile(file, JSON.stringify({ version: 1, savedAt: 0, count: 7 }));
    const { book, logger } = makeBook(file);
    await book.load();
    assert.equal(book.count, 7);
    assert.equal(book.restores, 1);
    assert.deepEqual(logger.lines, []);
  });
});

test('a bad file is moved aside with a warning and the book starts empty', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    await writeFile(file, JSON.stringify({ version: 1, savedAt: 0, count: -1 }));
    const { book, logger } = makeBook(file);
    await book.load();
    assert.equal(book.restores, 0, 'restore is not called for a bad file');
    assert.equal(book.count, 0);
    const names = await readdir(dir);
    assert.equal(names.length, 1);
    assert.match(names[0] ?? '', /^count\.json\.corrupt-/);
    assert.equal(logger.lines.length, 1);
    assert.match(
      logger.lines[0] ?? '',
      /^warn state file .*count\.json fails validation \(count: .*moved to/,
    );
  });
});

test('changes are written once, after the debounce on the injected time', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    const { book, time } = makeBook(file);
    book.add();
    book.add();
    time.advance(DEBOUNCE_MS - 1);
    await assert.rejects(stat(file), { code: 'ENOENT' });
    assert.equal(book.snapshots, 0);
    time.advance(1);
    await book.flush(); // queued behind the write the timer started
    assert.equal(book.snapshots, 1, 'the changes within the debounce make one write');
    assert.equal(await savedCount(file), 2);
    assert.equal(time.pending(), 0);
  });
});

test('close writes a pending change at once and cancels its timer', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    const { book, time } = makeBook(file);
    await book.load();
    book.add();
    assert.equal(time.pending(), 1);
    await book.close();
    assert.equal(time.pending(), 0);
    assert.equal(await savedCount(file), 1);
    assert.equal(book.snapshots, 1);
  });
});

test('a missing file leaves the book empty without a warning', async () => {
  await withDir(async (dir) => {
    const { book, logger } = makeBook(join(dir, 'none.json'));
    await book.load();
    assert.equal(book.restores, 0);
    assert.deepEqual(logger.lines, []);
  });
});

test('a write is atomic and private: the whole envelope, mode 0600, its folder made 0700', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'nested', 'count.json');
    const { book, time } = makeBook(file, 50);
    for (let i = 0; i < 25; i += 1) book.add();
    time.advance(50);
    await book.flush();
    assert.equal(book.snapshots, 1);
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), { version: 1, savedAt: T0 + 50, count: 25 });
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'nested'))).mode & 0o777, 0o700);
    await book.close();
  });
});

test('flush writes at once; a clean flush writes nothing', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'count.json'), 60_000);
    book.add();
    await book.flush();
    assert.equal(book.snapshots, 1);
    await book.flush();
    assert.equal(book.snapshots, 1, 'nothing dirty, nothing written');
    await book.close();
  });
});

test('concurrent flushes run one after the other and the last state wins', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    const { book } = makeBook(file, 60_000);
    book.set(1);
    const first = book.flush();
    // Wait until the first write has taken its snapshot and is on its way to disk.
    while (book.snapshots === 0) await new Promise((resolve) => setImmediate(resolve));
    book.set(2);
    const second = book.flush();
    await Promise.all([first, second]);
    assert.equal(book.snapshots, 2);
    assert.equal(await savedCount(file), 2);
    await book.close();
  });
});

test('a written book loads back into another', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    const a = makeBook(file);
    a.book.set(7);
    await a.book.close();
    const b = makeBook(file);
    await b.book.load();
    assert.equal(b.book.count, 7);
  });
});

for (const [label, content] of [
  ['unparsable JSON', '{"version": 1, "savedAt": 1, "count": '],
  ['a schema failure', JSON.stringify({ version: 1, savedAt: 1, count: 'many' })],
  ['an unknown version', JSON.stringify({ version: 2, savedAt: 1, count: 1 })],
] as const) {
  test(`${label} is moved aside to *.corrupt-* as it was, with a warning`, async () => {
    await withDir(async (dir) => {
      const file = join(dir, 'count.json');
      await writeFile(file, content);
      const { book, logger } = makeBook(file);
      await book.load();
      assert.equal(book.restores, 0);
      const aside = `${file}.corrupt-2025-01-02T03-04-05.678Z`;
      assert.deepEqual(await readdir(dir), ['count.json.corrupt-2025-01-02T03-04-05.678Z']);
      assert.equal(await readFile(aside, 'utf8'), content, 'the corrupt copy is kept as it was');
      assert.equal(logger.lines.length, 1);
      assert.match(logger.lines[0] ?? '', /^warn state file .*count\.json .*corrupt-/);
    });
  });
}

test('a change made while close writes is written too, and close resolves', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    const { book, logger } = makeBook(file, 60_000);
    book.set(1);
    const closing = book.close();
    // Wait until close's write has taken its snapshot and is on its way to disk.
    while (book.snapshots === 0) await new Promise((resolve) => setImmediate(resolve));
    book.set(2);
    await closing;
    assert.equal(book.snapshots, 2, 'a second write for the change made during the first');
    assert.equal(await savedCount(file), 2);
    assert.deepEqual(logger.lines, []);
  });
});

test('close stops writing a book that keeps changing during its writes, and says so', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'count.json');
    const { book, logger } = makeBook(file, 60_000);
    book.set(1);
    const closing = book.close();
    for (let written = 0; written < CLOSE_WRITES; written += 1) {
      while (book.snapshots === written) await new Promise((resolve) => setImmediate(resolve));
      book.add();
    }
    await closing;
    assert.equal(book.snapshots, CLOSE_WRITES);
    assert.equal(await savedCount(file), CLOSE_WRITES);
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0] ?? '', /^error state file .*count\.json: still changing after 4 writes/);
  });
});

test('a failed write is logged, stays dirty and succeeds on a later flush; close says it was not saved', async () => {
  await withDir(async (dir) => {
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, 'a file where a folder should be');
    const file = join(blocker, 'count.json');
    const { book, logger } = makeBook(file, 60_000);
    book.set(3);
    await book.flush();
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0] ?? '', /^error state file .* write failed/);
    await assert.rejects(book.close(), /was not saved/);
    await rm(blocker);
    await book.flush();
    assert.equal(await savedCount(file), 3);
  });
});

test("load removes the router's own stale temp files and nothing else: a user's copies stay", async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'history.json');
    await writeFile(file, JSON.stringify({ version: 1, savedAt: T0, count: 7 }));
    const stale = `${file}.0123456789ab.tmp`;
    const underWay = `${file}.bbbbbbbbbbbb.tmp`;
    await writeFile(stale, '{"version":1,"savedAt":1,"co');
    await writeFile(underWay, '{"version":1,"savedAt":2,"co');
    const longAgo = new Date(T0 - STALE_TEMP_MS - 1_000);
    await utimes(stale, longAgo, longAgo);
    await utimes(underWay, new Date(T0), new Date(T0));
    const users = ['history.json.2', 'history.json.20261201', 'usage.json.20261201', 'history.json.bak'];
    for (const name of users) {
      await writeFile(join(dir, name), 'a copy the user made');
      await utimes(join(dir, name), longAgo, longAgo);
    }
    await writeFile(`${file}.corrupt-2025-01-02T03-04-05.678Z`, 'kept for the user');
    const { book } = makeBook(file);
    await book.load();
    assert.equal(book.count, 7);
    assert.deepEqual(
      (await readdir(dir)).sort(),
      [
        'history.json',
        'history.json.bbbbbbbbbbbb.tmp',
        'history.json.corrupt-2025-01-02T03-04-05.678Z',
        ...users,
      ].sort(),
    );
  });
});
