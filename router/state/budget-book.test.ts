import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_LIMITS } from '../catalogue/free-tier-limits.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { BudgetBook } from './budget-book.js';
import { DAY_MS, MINUTE_MS, minuteUsed } from './budget-standing.js';
import { STATE_FILE_VERSION } from './json-state-file.js';

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
    const time = { now: MINUTE + 30_000 };
    const logger = recordingLogger();
    const book = new BudgetBook({ file, clock: () => time.now, debounceMs: 60_000, logger });
    await book.load();
    assert.deepEqual(logger.lines, [], 'not moved aside as corrupt');
    assert.deepEqual(await readdir(dir), ['budgets.json']);
    const counts = book.counts(ID);
    assert.equal(counts.dayRequests, 7);
    assert.equal(counts.dayTokens, 900);
    assert.equal(minuteUsed(counts, 'requests'), 2);
    // The old minute's requests may have come as late as its last millisecond: they count a minute from then.
    const limits = { ...NO_LIMITS, rpm: 2 };
    assert.deepEqual(book.standing(ID, limits), { type: 'at', until: MINUTE + 2 * MINUTE_MS - 1 });
    assert.equal(book.counts('beta/m2 @aaaaaaaaaaaa').dayRequests, 3);

    book.add(ID, limits, 1, 5);
    await book.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { counters: Record<string, unknown> };
    assert.deepEqual(saved.counters[ID], {
      // A count made before the newest slice's date joins it: slices stay in order, none leaves early.
      minute: [{ last: MINUTE + MINUTE_MS - 1, requests: 3, tokens: 45 }],
      day: DAY,
      dayRequests: 8,
      dayTokens: 905,
      heldUntil: null,
    });

    time.now = DAY + DAY_MS + 1000;
    const next = new BudgetBook({ file, clock: () => time.now, debounceMs: 60_000, logger });
    await next.load();
    assert.equal(next.counts(ID).dayRequests, 0, 'a new day');
    await next.close();
  });
});
