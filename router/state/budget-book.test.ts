import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_LIMITS } from '../catalogue/free-tier-limits.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { BudgetBook } from './budget-book.js';
import { DAY_MS, MINUTE_MS, minuteUsed } from './budget-standing.js';
import { STATE_FILE_VERSION } from './state-book.js';
import { TestClock } from '../test-support/test-clock.js';

const DAY = Date.UTC(2030, 0, 15);
const MINUTE = DAY + 12 * 3_600_000;
const ID = 'alpha/m1 @6f0b3c1d2e4a';

test('a budgets file from when the minute was fixed still loads: the day survives, the minute is kept whole', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'budgets.json');
    const old = {
      version: STATE_FILE_VERSION,
      savedAt: MINUTE + 20_000,
      counters: {
        [ID]: {
          minute: MINUTE,
          minuteRequests: 2,
          minuteTokens: 40,
          day: DAY,
          dayRequests: 7,
          dayTokens: 900,
          heldUntil: null,
        },
        'beta/m2 @aaaaaaaaaaaa': {
          minute: MINUTE - 5 * MINUTE_MS,
          minuteRequests: 0,
          minuteTokens: 0,
          day: DAY,
          dayRequests: 3,
          dayTokens: 0,
          heldUntil: null,
        },
      },
    };
    await writeFile(file, JSON.stringify(old));
    const time = new TestClock(MINUTE + 30_000);
    const logger = recordingLogger();
    const book = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    await book.load();
    assert.deepEqual(logger.lines, [], 'not moved aside as corrupt');
    assert.deepEqual(await readdir(dir), ['budgets.json']);
    const counts = book.counts(ID, 'UTC');
    assert.equal(counts.dayRequests, 7);
    assert.equal(counts.dayTokens, 900);
    assert.equal(minuteUsed(counts, 'requests'), 2);
    // The old minute's requests may have come as late as its last millisecond: they count a minute from then.
    const limits = { ...NO_LIMITS, rpm: 2 };
    assert.deepEqual(book.standing(ID, 'UTC', limits), { type: 'at', until: MINUTE + 2 * MINUTE_MS - 1 });
    assert.equal(book.counts('beta/m2 @aaaaaaaaaaaa', 'UTC').dayRequests, 3);

    book.add(ID, 'UTC', limits, 1, 5);
    await book.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { counters: Record<string, unknown> };
    assert.deepEqual(saved.counters[ID], {
      // A count made before the newest slice's date joins it: slices stay in order, none leaves early.
      minute: [{ last: MINUTE + MINUTE_MS - 1, requests: 3, tokens: 45 }],
      day: DAY,
      dayEnd: DAY + DAY_MS,
      dayRequests: 8,
      dayTokens: 905,
      heldUntil: null,
    });

    time.set(DAY + DAY_MS + 1000);
    const next = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    await next.load();
    assert.equal(next.counts(ID, 'UTC').dayRequests, 0, 'a new day');
    await next.close();
  });
});

test('a Pacific day’s counts survive a save and a load after UTC midnight; a file without day ends still loads', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'budgets.json');
    const pacific = 'America/Los_Angeles';
    const time = new TestClock(Date.UTC(2030, 0, 15, 23, 30));
    const logger = recordingLogger();
    const book = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    const limits = { ...NO_LIMITS, rpd: 2 };
    book.add(ID, pacific, limits, 2, 0);
    time.set(Date.UTC(2030, 0, 16, 0, 30));
    await book.close();
    const next = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    await next.load();
    assert.deepEqual(next.standing(ID, pacific, limits), { type: 'at', until: Date.UTC(2030, 0, 16, 8) });
    await next.close();

    // A file written before days had a zone: its days were UTC days.
    const counts = { minute: [], day: DAY, dayRequests: 4, dayTokens: 0, heldUntil: null };
    await writeFile(
      file,
      JSON.stringify({ version: STATE_FILE_VERSION, savedAt: DAY, counters: { [ID]: counts } }),
    );
    time.set(DAY + 3_600_000);
    const old = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    await old.load();
    assert.equal(old.counts(ID, 'UTC').dayRequests, 4);
    assert.deepEqual(old.standing(ID, 'UTC', { ...NO_LIMITS, rpd: 4 }), { type: 'at', until: DAY + DAY_MS });
    await old.close();
    assert.deepEqual(logger.lines, [], 'nothing moved aside as corrupt');
  });
});

test('a hold is never longer than a day: neither from a provider’s reset header nor from a damaged file', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'budgets.json');
    const time = new TestClock(MINUTE);
    const logger = recordingLogger();
    const book = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    book.correct(ID, 'UTC', NO_LIMITS, { requests: { remaining: 0, resetMs: 9e12 }, tokens: null });
    assert.deepEqual(book.standing(ID, 'UTC', NO_LIMITS), { type: 'at', until: MINUTE + DAY_MS });
    await book.close();

    const damaged = {
      version: STATE_FILE_VERSION,
      savedAt: MINUTE,
      counters: {
        [ID]: { minute: [], day: DAY, dayEnd: DAY + DAY_MS, dayRequests: 0, dayTokens: 0, heldUntil: 9e15 },
      },
    };
    await writeFile(file, JSON.stringify(damaged));
    const loaded = new BudgetBook({ file, time, debounceMs: 60_000, logger });
    await loaded.load();
    assert.deepEqual(loaded.standing(ID, 'UTC', NO_LIMITS), { type: 'at', until: MINUTE + DAY_MS });
    time.set(MINUTE + DAY_MS);
    assert.deepEqual(loaded.standing(ID, 'UTC', NO_LIMITS), { type: 'ok' });
    await loaded.close();
  });
});

/** A new, empty book at MINUTE on a test clock; closed after `run`. */
async function withFreshBook(
  run: (book: BudgetBook, time: TestClock) => Promise<void> | void,
): Promise<void> {
  await withDir(async (dir) => {
    const time = new TestClock(MINUTE);
    const book = new BudgetBook({
      file: join(dir, 'budgets.json'),
      time,
      debounceMs: 60_000,
      logger: recordingLogger(),
    });
    try {
      await run(book, time);
    } finally {
      await book.close();
    }
  });
}

test('a request counted and then taken back leaves the minute and the day as they were, once and never below', async () => {
  await withFreshBook(async (book, time) => {
    const limits = { ...NO_LIMITS, rpm: 2, rpd: 10 };
    book.add(ID, 'UTC', limits, 1, 0);
    time.advance(1_500);
    const unsent = book.add(ID, 'UTC', limits, 1, 0);
    assert.equal(book.standing(ID, 'UTC', limits).type, 'at');
    book.uncount(ID, 'UTC', limits, unsent);
    const counts = book.counts(ID, 'UTC');
    assert.deepEqual([minuteUsed(counts, 'requests'), counts.dayRequests, counts.minute.length], [1, 1, 1]);
    assert.equal(book.standing(ID, 'UTC', limits).type, 'ok', 'the minute has room again');

    // A count whose second left the minute is taken from the day alone; a day over, from nothing.
    const early = book.add(ID, 'UTC', limits, 1, 0);
    time.advance(MINUTE_MS);
    book.uncount(ID, 'UTC', limits, early);
    assert.deepEqual(
      [minuteUsed(book.counts(ID, 'UTC'), 'requests'), book.counts(ID, 'UTC').dayRequests],
      [0, 1],
    );
    const late = book.add(ID, 'UTC', limits, 1, 0);
    time.set(DAY + DAY_MS + 1_000);
    book.uncount(ID, 'UTC', limits, late);
    assert.equal(book.counts(ID, 'UTC').dayRequests, 0);
    book.uncount(ID, 'UTC', limits, time.now());
    assert.deepEqual(
      [minuteUsed(book.counts(ID, 'UTC'), 'requests'), book.counts(ID, 'UTC').dayRequests],
      [0, 0],
    );
  });
});

test('after the provider corrected the count, a request counted before it is not taken back', async () => {
  await withFreshBook(async (book, time) => {
    const limits = { ...NO_LIMITS, rpd: 100 };
    const unsent = book.add(ID, 'UTC', limits, 1, 0);
    time.advance(200);
    // The provider says 90 left: 10 used by its count, which never had the unsent request.
    book.correct(ID, 'UTC', limits, { requests: { remaining: 90, resetMs: 3_600_000 }, tokens: null });
    book.uncount(ID, 'UTC', limits, unsent);
    assert.equal(book.counts(ID, 'UTC').dayRequests, 10);
  });
});
