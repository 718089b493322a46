import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_LIMITS, type BudgetLimits } from '../catalogue/free-tier-limits.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';
import { BudgetBook } from './budget-book.js';
import { budgetStanding, DAY_MS, MINUTE_MS, type BudgetStanding } from './budget-standing.js';
import { STATE_FILE_VERSION } from './state-book.js';

const DAY = Date.UTC(2030, 0, 15);
const NOON = DAY + 12 * 3_600_000;
const ID = 'alpha/m1 @6f0b3c1d2e4a';
const PACIFIC = 'America/Los_Angeles';

function bookAt(start: number, file = '/nonexistent/budgets.json'): { book: BudgetBook; time: TestClock } {
  const time = new TestClock(start);
  return { book: new BudgetBook({ file, time, debounceMs: 60_000, logger: recordingLogger() }), time };
}

/** The book's answer (remembered or not) is `expected`, and is what the counts say when worked out afresh. */
function stands(
  book: BudgetBook,
  limits: BudgetLimits,
  expected: BudgetStanding,
  zone = 'UTC',
  message?: string,
): void {
  assert.deepEqual(book.standing(ID, zone, limits), expected, message);
  assert.deepEqual(budgetStanding(limits, book.counts(ID, zone)), expected, `${message ?? ''} (afresh)`);
}

test('a remembered "near" ends exactly when the minute’s oldest slice leaves', () => {
  const { book, time } = bookAt(NOON);
  const limits = { ...NO_LIMITS, rpm: 10 };
  book.add(ID, 'UTC', limits, 1, 0);
  time.set(NOON + 10_000);
  book.add(ID, 'UTC', limits, 7, 0);
  stands(book, limits, { type: 'near' });
  time.set(NOON + MINUTE_MS - 1);
  stands(book, limits, { type: 'near' }, 'UTC', 'the oldest request is not yet a minute old');
  time.set(NOON + MINUTE_MS);
  stands(book, limits, { type: 'ok' }, 'UTC', 'seven of ten left');
  time.set(NOON + 10_000 + MINUTE_MS);
  stands(book, limits, { type: 'ok' });
});

test('a remembered "at" holds up to its until, through slices leaving before it, and not a moment past', () => {
  const { book, time } = bookAt(NOON);
  const limits = { ...NO_LIMITS, rpm: 3 };
  for (const at of [0, 1_000, 2_000, 3_000]) {
    time.set(NOON + at);
    book.add(ID, 'UTC', limits, 1, 0);
  }
  // Four in the minute at a limit of three: room again when the second is a minute old.
  const until = NOON + 1_000 + MINUTE_MS;
  stands(book, limits, { type: 'at', until });
  time.set(NOON + MINUTE_MS);
  stands(book, limits, { type: 'at', until }, 'UTC', 'the first left, three are still counted');
  time.set(until - 1);
  stands(book, limits, { type: 'at', until });
  time.set(until);
  stands(book, limits, { type: 'ok' }, 'UTC', 'two of three: near is from 80 %');
});

test('a remembered standing of the day’s counts ends with the day, in the zone it was counted in', () => {
  const late = DAY + DAY_MS - 5 * MINUTE_MS;
  const { book, time } = bookAt(late);
  const near = { ...NO_LIMITS, rpd: 10 };
  const reached = { ...NO_LIMITS, rpd: 9 };
  book.add(ID, 'UTC', near, 9, 0);
  time.set(late + 2 * MINUTE_MS);
  stands(book, near, { type: 'near' });
  stands(book, reached, { type: 'at', until: DAY + DAY_MS });
  time.set(DAY + DAY_MS - 1);
  stands(book, near, { type: 'near' });
  stands(book, reached, { type: 'at', until: DAY + DAY_MS });
  time.set(DAY + DAY_MS);
  stands(book, near, { type: 'ok' }, 'UTC', 'a new day');
  stands(book, reached, { type: 'ok' }, 'UTC', 'a new day');

  // Counted 30 s before midnight: the day ends before the minute's slice leaves.
  const { book: lastMinute, time: clock } = bookAt(DAY + DAY_MS - 30_000);
  lastMinute.add(ID, 'UTC', near, 9, 0);
  stands(lastMinute, near, { type: 'near' });
  clock.set(DAY + DAY_MS);
  stands(lastMinute, near, { type: 'ok' }, 'UTC', 'a new day, the slice still in the minute');
});

test('a standing remembered for one zone or one set of limits is not another’s', () => {
  const { book, time } = bookAt(NOON);
  const limits = { ...NO_LIMITS, rpm: 10, rpd: 10 };
  book.add(ID, 'UTC', limits, 8, 0);
  time.set(NOON + 2 * MINUTE_MS);
  stands(book, limits, { type: 'near' }, 'UTC', 'by the day');
  stands(book, { ...limits, rpd: 100 }, { type: 'ok' }, 'UTC', 'a larger daily limit');
  stands(book, { ...limits, rpd: 8 }, { type: 'at', until: DAY + DAY_MS }, 'UTC', 'a smaller one');
  stands(book, { ...limits }, { type: 'near' }, 'UTC', 'the same values in another object');
  // A changed zone starts a new day, and the day it leaves is not counted again.
  stands(book, limits, { type: 'ok' }, PACIFIC, 'a Pacific day');
  stands(book, limits, { type: 'ok' }, 'UTC', 'back in UTC, a new day too');
});

test('a hold’s standing ends when the hold expires', () => {
  const { book, time } = bookAt(NOON);
  book.correct(ID, 'UTC', NO_LIMITS, { requests: { remaining: 0, resetMs: 5_000 }, tokens: null });
  stands(book, NO_LIMITS, { type: 'at', until: NOON + 5_000 });
  time.set(NOON + 4_999);
  stands(book, NO_LIMITS, { type: 'at', until: NOON + 5_000 });
  time.set(NOON + 5_000);
  stands(book, NO_LIMITS, { type: 'ok' });
});

test('a count or a provider’s correction changes the standing at once', () => {
  const { book, time } = bookAt(NOON);
  const limits = { ...NO_LIMITS, rpm: 10 };
  book.add(ID, 'UTC', limits, 7, 0);
  stands(book, limits, { type: 'ok' });
  time.set(NOON + 1_000);
  book.add(ID, 'UTC', limits, 1, 0);
  stands(book, limits, { type: 'near' }, 'UTC', 'after a count');
  book.add(ID, 'UTC', limits, 2, 0);
  stands(book, limits, { type: 'at', until: NOON + MINUTE_MS }, 'UTC', 'after another');
  book.correct(ID, 'UTC', limits, { requests: { remaining: 5, resetMs: 30_000 }, tokens: null });
  stands(book, limits, { type: 'ok' }, 'UTC', 'the provider counts five');
  book.correct(ID, 'UTC', limits, { requests: { remaining: 0, resetMs: 30_000 }, tokens: null });
  // Ten in the minute again, the oldest two from noon: the minute outlasts the provider's 30 s hold.
  stands(book, limits, { type: 'at', until: NOON + MINUTE_MS }, 'UTC', 'the provider holds it');
});

test('a clock set back before a remembered standing works it out again: the day may be another', () => {
  const { book, time } = bookAt(DAY + DAY_MS + MINUTE_MS);
  const limits = { ...NO_LIMITS, rpd: 5 };
  book.add(ID, 'UTC', limits, 5, 0);
  stands(book, limits, { type: 'at', until: DAY + 2 * DAY_MS });
  time.set(DAY + DAY_MS - MINUTE_MS);
  stands(book, limits, { type: 'ok' }, 'UTC', 'the day before holds none of the counts');

  // A fine standing stays fine whichever way the clock moves: the minute keeps what it held.
  const fine = { ...NO_LIMITS, rpm: 5, rpd: 5 };
  const { book: other, time: clock } = bookAt(DAY + DAY_MS + MINUTE_MS);
  other.add(ID, 'UTC', fine, 3, 0);
  stands(other, fine, { type: 'ok' });
  clock.set(DAY + DAY_MS - MINUTE_MS);
  stands(other, fine, { type: 'ok' });
});

test('a file whose minute is out of order is loaded oldest first: each slice leaves on time', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'budgets.json');
    const minute = [
      { last: NOON - 10_000, requests: 5, tokens: 0 },
      { last: NOON - 50_000, requests: 4, tokens: 0 },
    ];
    const counters = {
      [ID]: { minute, day: DAY, dayEnd: DAY + DAY_MS, dayRequests: 9, dayTokens: 0, heldUntil: null },
    };
    await writeFile(file, JSON.stringify({ version: STATE_FILE_VERSION, savedAt: NOON, counters }));
    const { book, time } = bookAt(NOON, file);
    await book.load();
    const limits = { ...NO_LIMITS, rpm: 9 };
    stands(book, limits, { type: 'at', until: NOON - 50_000 + MINUTE_MS });
    time.set(NOON + 10_000);
    stands(book, limits, { type: 'ok' }, 'UTC', 'the older slice left, five of nine');
    assert.deepEqual(
      book.counts(ID, 'UTC').minute.map((slice) => slice.last),
      [NOON - 10_000],
    );
    time.set(NOON + 50_000);
    stands(book, limits, { type: 'ok' });
    assert.deepEqual(book.counts(ID, 'UTC').minute, []);
    await book.close();
  });
});
