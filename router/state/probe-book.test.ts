import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProbeBook } from './probe-book.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

/** 20:00 UTC, so a few hours later is the next day. */
const T0 = Date.UTC(2030, 0, 15, 20, 0, 0);
const HOUR = 60 * 60 * 1000;

/** Every provider counts in UTC unless `zones` names its day's time zone. */
function makeBook(file: string, time = new TestClock(T0), zones: Record<string, string> = {}) {
  const logger = recordingLogger();
  const zoneOf = (provider: string): string => zones[provider] ?? 'UTC';
  const book = new ProbeBook({ file, time, debounceMs: 60_000, logger, zoneOf });
  return { book, time, logger };
}

test('the day’s budget is spent per provider and comes back the next UTC day', async () => {
  await withDir(async (dir) => {
    const { book, time } = makeBook(join(dir, 'probes.json'));
    assert.equal(book.remaining('alpha', 3), 3);
    book.spend('alpha');
    book.spend('alpha');
    book.spend('beta');
    assert.equal(book.remaining('alpha', 3), 1);
    assert.equal(book.remaining('beta', 3), 2);
    assert.equal(book.remaining('alpha', 1), 0, 'never below zero');
    time.advance(3 * HOUR + 59 * 60 * 1000);
    assert.equal(book.remaining('alpha', 3), 1, 'still the same day at 23:59');
    time.advance(60 * 1000);
    assert.equal(book.remaining('alpha', 3), 3);
    assert.equal(book.remaining('beta', 3), 3);
    await book.close();
  });
});

test('a restart keeps the day’s spent budget and each model’s last probe; the next day is full again', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'probes.json');
    const time = new TestClock(T0);
    const first = makeBook(file, time);
    first.book.spend('alpha');
    first.book.spend('alpha');
    first.book.record('alpha/m1', { at: T0, ok: false, kind: 'server_error', latencyMs: 120 });
    await first.book.close();

    time.advance(HOUR);
    const second = makeBook(file, time);
    await second.book.load();
    assert.equal(second.book.remaining('alpha', 5), 3, 'a restart does not give the budget back');
    assert.deepEqual(second.book.last('alpha/m1'), {
      at: T0,
      ok: false,
      kind: 'server_error',
      latencyMs: 120,
    });
    assert.equal(second.book.last('alpha/m2'), null);
    await second.book.close();

    time.advance(3 * HOUR);
    const third = makeBook(file, time);
    await third.book.load();
    assert.equal(third.book.remaining('alpha', 5), 5, 'a new day, a new budget');
    assert.equal(third.book.last('alpha/m1')?.kind, 'server_error', 'the last probe stays');
    assert.deepEqual(second.logger.lines, []);
    await third.book.close();
  });
});

test('each provider’s budget comes back at its own midnight: a Pacific provider’s at 08:00 UTC', async () => {
  await withDir(async (dir) => {
    const zones = { google: 'America/Los_Angeles' };
    const { book, time } = makeBook(join(dir, 'probes.json'), new TestClock(T0), zones);
    book.spend('google');
    book.spend('alpha');
    // 00:30 UTC: a new UTC day, still the same Pacific one (16:30 the day before).
    time.set(Date.UTC(2030, 0, 16, 0, 30));
    assert.equal(book.remaining('alpha', 3), 3);
    assert.equal(book.remaining('google', 3), 2, 'not before Pacific midnight');
    time.set(Date.UTC(2030, 0, 16, 8, 0));
    assert.equal(book.remaining('google', 3), 3);
    await book.close();
  });
});

test('an older file’s counts, kept for one UTC day, still count in that day', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'probes.json');
    const older = { version: 1, savedAt: T0, day: '2030-01-15', spent: { alpha: 2 }, last: {} };
    await writeFile(file, JSON.stringify(older));
    const { book, time, logger } = makeBook(file);
    await book.load();
    assert.deepEqual(logger.lines, []);
    assert.equal(book.remaining('alpha', 5), 3);
    time.set(Date.UTC(2030, 0, 16, 0, 0));
    assert.equal(book.remaining('alpha', 5), 5);
    await book.close();
  });
});

test('an invalid file is moved aside with a warning naming it, and the book starts empty', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'probes.json');
    const bad = { version: 1, savedAt: T0, day: '2030-01-15', spent: { alpha: -2 }, last: {} };
    await writeFile(file, JSON.stringify(bad));
    const { book, logger } = makeBook(file);
    await book.load();
    assert.equal(book.remaining('alpha', 5), 5);
    assert.equal(logger.lines.length, 1);
    assert.match(logger.lines[0] ?? '', /^warn state file .*probes\.json fails validation \(spent\.alpha/);
    const names = await readdir(dir);
    assert.ok(
      names.some((name) => name.startsWith('probes.json.corrupt-')),
      names.join(', '),
    );
    await book.close();
  });
});

test('a file that is not JSON is moved aside too', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'probes.json');
    await writeFile(file, '{"version":1,');
    const { book, logger } = makeBook(file);
    await book.load();
    assert.equal(book.last('alpha/m1'), null);
    assert.match(logger.lines.join('\n'), /probes\.json is not valid JSON; moved to/);
    await book.close();
  });
});
