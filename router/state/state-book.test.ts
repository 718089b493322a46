import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod/v3';
import { StateBook, type StateBookOptions } from './state-book.js';
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
    this.count += 1;
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

function makeBook(file: string) {
  const time = new TestClock();
  const logger = recordingLogger();
  const book = new CountBook({ file, time, debounceMs: DEBOUNCE_MS, logger });
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
