import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_LIMITS, modelLimits } from '../catalogue/free-tier-limits.js';
import {
  addToMinute,
  budgetStanding,
  dayShare,
  holdsBudget,
  DAY_MS,
  minuteUsed,
  MINUTE_MS,
  pruned,
  roll,
  rolled,
  setMinuteUsed,
  type BudgetCounts,
} from './budget-standing.js';

const DAY = Date.UTC(2030, 0, 15);
const HOUR = 3_600_000;
const NOW = DAY + 12 * HOUR + 30_000;

/** Counts at `now` with `requests` requests made at each of `times`, and the day's counts given. */
function countsWith(now: number, times: number[], day: Partial<BudgetCounts> = {}): BudgetCounts {
  const counts = { ...rolled(undefined, now, 'UTC'), ...day };
  for (const at of times) addToMinute(counts, at, 1, 10);
  return counts;
}

test('the minute slides: a count leaves it 60 s after it was made; the day rolls over at UTC midnight', () => {
  const counts = countsWith(NOW, [NOW - 50_000, NOW - 20_000, NOW], { dayRequests: 9, dayTokens: 50 });
  assert.equal(minuteUsed(counts, 'requests'), 3);
  assert.equal(minuteUsed(counts, 'tokens'), 30);
  assert.deepEqual(rolled(counts, NOW, 'UTC'), counts);
  assert.equal(minuteUsed(rolled(counts, NOW + 9_999, 'UTC'), 'requests'), 3);
  assert.equal(minuteUsed(rolled(counts, NOW + 10_000, 'UTC'), 'requests'), 2, 'the oldest is a minute old');
  assert.equal(minuteUsed(rolled(counts, NOW + 60_000, 'UTC'), 'requests'), 0);
  assert.equal(rolled(counts, NOW + 10_000, 'UTC').dayRequests, 9);
  assert.equal(rolled(counts, NOW + DAY_MS, 'UTC').dayRequests, 0);
  // Just before midnight: the new day starts empty, the last minute still counts.
  const late = DAY + DAY_MS - 5_000;
  const beforeMidnight = countsWith(late, [late], { dayRequests: 1 });
  const afterMidnight = rolled(beforeMidnight, late + 10_000, 'UTC');
  assert.equal(afterMidnight.dayRequests, 0);
  assert.equal(minuteUsed(afterMidnight, 'requests'), 1);
});

test('the minute keeps one slice per second, so its memory is bounded whatever the rate', () => {
  const counts = rolled(undefined, NOW, 'UTC');
  for (let ms = 0; ms < 120_000; ms += 10) addToMinute(counts, NOW + ms, 1, 0);
  const now = NOW + 120_000;
  const minute = rolled(counts, now, 'UTC').minute;
  assert.ok(minute.length <= 61, `${minute.length} slices`);
  // The slice from 60.000 s on stays while its latest count (60.990 s) is under a minute old: never early.
  assert.equal(minuteUsed(rolled(counts, now, 'UTC'), 'requests'), 6000);
  assert.equal(minute[0]?.last, NOW + 60_990, 'each slice is dated by its latest count');
});

test('at a limit until enough of the minute slid out (or the day is over), near from 80 %, else fine', () => {
  const limits = { ...NO_LIMITS, rpm: 10, rpd: 100 };
  const times = (n: number): number[] => Array.from({ length: n }, (_, i) => NOW - 30_000 + i * 1000);
  assert.deepEqual(budgetStanding(limits, countsWith(NOW, times(7))), { type: 'ok' });
  assert.deepEqual(budgetStanding(limits, countsWith(NOW, times(8))), { type: 'near' });
  // Ten requests a second apart from 30 s ago: one slot frees when the first is a minute old.
  assert.deepEqual(budgetStanding(limits, countsWith(NOW, times(10))), {
    type: 'at',
    until: NOW - 30_000 + MINUTE_MS,
  });
  const two = countsWith(NOW, [NOW - 1000, NOW]);
  assert.deepEqual(budgetStanding({ ...NO_LIMITS, rpm: 1 }, two), { type: 'at', until: NOW + MINUTE_MS });
  assert.deepEqual(budgetStanding(limits, countsWith(NOW, times(10), { dayRequests: 100 })), {
    type: 'at',
    until: DAY + DAY_MS,
  });
  const tokens = countsWith(NOW, [NOW - 40_000, NOW - 10_000]);
  assert.deepEqual(budgetStanding({ ...NO_LIMITS, tpm: 15 }, tokens), {
    type: 'at',
    until: NOW - 40_000 + MINUTE_MS,
  });
  const base = rolled(undefined, NOW, 'UTC');
  assert.deepEqual(budgetStanding(NO_LIMITS, { ...base, heldUntil: NOW + 5000 }), {
    type: 'at',
    until: NOW + 5000,
  });
  assert.equal(dayShare(limits, { ...base, dayRequests: 25 }), 0.25);
  assert.equal(dayShare({ ...NO_LIMITS, rpm: 5 }, base), null);
});

test('a provider’s count replaces the minute’s: more counted now, fewer taken from the oldest', () => {
  const counts = countsWith(NOW, [NOW - 50_000, NOW - 20_000]);
  setMinuteUsed(counts, 'requests', 5, NOW);
  assert.equal(minuteUsed(counts, 'requests'), 5);
  assert.deepEqual(counts.minute.at(-1), { last: NOW, requests: 3, tokens: 0 });
  setMinuteUsed(counts, 'requests', 3, NOW);
  assert.deepEqual(
    counts.minute.map((slice) => slice.requests),
    [0, 0, 3],
    'the two oldest requests went',
  );
  assert.equal(minuteUsed(counts, 'tokens'), 20, 'tokens stay');
  setMinuteUsed(counts, 'tokens', 0, NOW);
  assert.deepEqual(counts.minute, [{ last: NOW, requests: 3, tokens: 0 }], 'empty slices are dropped');
});

test('limits: catalogue, then the catalogue’s model entry, then the config (null removes one)', () => {
  assert.deepEqual(modelLimits('groq', 'llama-3.1-8b-instant', undefined), {
    rpm: 30,
    rpd: 14_400,
    tpm: 6000,
    tpd: 500_000,
  });
  assert.deepEqual(
    modelLimits('groq', 'llama-3.1-8b-instant', {
      limits: { rpm: 10, tpd: null },
      modelLimits: { 'llama-3.1-8b-instant': { rpd: 50 } },
    }),
    { rpm: 10, rpd: 50, tpm: 6000, tpd: null },
  );
  assert.deepEqual(modelLimits('custom', 'm', undefined), NO_LIMITS);
  // Groq's page: groq/compound has 250 RPD and 70K TPM, and no daily token limit.
  assert.deepEqual(modelLimits('groq', 'groq/compound', undefined), {
    rpm: 30,
    rpd: 250,
    tpm: 70_000,
    tpd: null,
  });
  // Mistral's free tier: one request a second and 500K tokens a minute, Codestral included.
  assert.deepEqual(modelLimits('codestral', 'codestral-2508', undefined), {
    rpm: 60,
    rpd: null,
    tpm: 500_000,
    tpd: null,
  });
});

test('the day is the provider’s: a Pacific day holds 23:30 and 00:30 UTC and is at its limit until Pacific midnight', () => {
  const pacific = 'America/Los_Angeles';
  const evening = Date.UTC(2030, 0, 15, 23, 30);
  const counts = rolled(undefined, evening, pacific);
  assert.equal(counts.day, Date.UTC(2030, 0, 15, 8));
  counts.dayRequests = 2;
  const afterUtcMidnight = rolled(counts, evening + HOUR, pacific);
  assert.equal(afterUtcMidnight.dayRequests, 2, 'still the same day in California');
  const limits = { ...NO_LIMITS, rpd: 2 };
  assert.deepEqual(budgetStanding(limits, afterUtcMidnight), { type: 'at', until: Date.UTC(2030, 0, 16, 8) });
  assert.equal(
    rolled(counts, Date.UTC(2030, 0, 16, 8), pacific).dayRequests,
    0,
    'a new day at Pacific midnight',
  );
  // The same counts read in UTC are another day: a changed zone starts a new one.
  assert.equal(rolled(counts, evening + HOUR, 'UTC').dayRequests, 0);
  // The day clocks go back lasts 25 hours: its limit holds until the next midnight, 08:00 UTC.
  const autumn = { ...rolled(undefined, Date.UTC(2030, 10, 3, 7, 30), pacific), dayRequests: 2 };
  assert.deepEqual(budgetStanding(limits, rolled(autumn, Date.UTC(2030, 10, 4, 7, 30), pacific)), {
    type: 'at',
    until: Date.UTC(2030, 10, 4, 8),
  });
});

test('pruning needs no zone: a day’s counts stay until its own end', () => {
  const pacific = rolled(undefined, Date.UTC(2030, 0, 15, 23, 30), 'America/Los_Angeles');
  pacific.dayRequests = 3;
  assert.equal(pruned(pacific, Date.UTC(2030, 0, 16, 7, 59)).dayRequests, 3);
  assert.equal(pruned(pacific, Date.UTC(2030, 0, 16, 8)).dayRequests, 0);
});

test('roll brings counts to now in place, exactly as rolled does on a copy', () => {
  const t0 = Date.UTC(2030, 0, 15, 23, 59, 0);
  const base: BudgetCounts = {
    minute: [
      { last: t0 - 70_000, requests: 1, tokens: 10 },
      { last: t0 - 30_000, requests: 2, tokens: 20 },
      { last: t0 - 1_000, requests: 3, tokens: 30 },
    ],
    day: Date.UTC(2030, 0, 15),
    dayEnd: Date.UTC(2030, 0, 16),
    dayRequests: 6,
    dayTokens: 60,
    heldUntil: t0 + 5_000,
  };
  const copy = (): BudgetCounts => ({ ...base, minute: base.minute.map((slice) => ({ ...slice })) });
  for (const [now, zone] of [
    [t0, 'UTC'],
    [t0 + 10_000, 'UTC'],
    [t0 + 31_000, 'UTC'],
    [t0 + 120_000, 'UTC'],
    [t0, 'America/Los_Angeles'],
  ] as const) {
    const inPlace = copy();
    roll(inPlace, now, zone);
    assert.deepEqual(inPlace, rolled(copy(), now, zone), `${now - t0} ms on, ${zone}`);
  }
});

test('a provider’s headers hold a budget when one is spent and says when it resets', () => {
  const hint = (remaining: number, resetMs: number | null) => ({ remaining, resetMs });
  assert.equal(holdsBudget({ requests: hint(0, 60_000), tokens: null }), true);
  assert.equal(holdsBudget({ requests: hint(5, 60_000), tokens: hint(0, 1_000) }), true);
  assert.equal(holdsBudget({ requests: hint(1, 60_000), tokens: null }), false);
  assert.equal(
    holdsBudget({ requests: hint(0, null), tokens: null }),
    false,
    'no reset: nothing to hold until',
  );
  assert.equal(holdsBudget({ requests: null, tokens: null }), false);
});
