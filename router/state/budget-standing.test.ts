import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_LIMITS, modelLimits } from '../catalogue/free-tier-limits.js';
import { budgetStanding, dayShare, DAY_MS, MINUTE_MS, rolled } from './budget-standing.js';

const DAY = Date.UTC(2030, 0, 15);
const NOW = DAY + 12 * 3_600_000 + 30_000;

test('counts roll over with their minute and their UTC day', () => {
  const counts = { ...rolled(undefined, NOW), minuteRequests: 3, dayRequests: 9, dayTokens: 50 };
  assert.deepEqual(rolled(counts, NOW + 10_000), counts);
  const nextMinute = rolled(counts, NOW + MINUTE_MS);
  assert.equal(nextMinute.minuteRequests, 0);
  assert.equal(nextMinute.dayRequests, 9);
  assert.equal(rolled(counts, NOW + DAY_MS).dayRequests, 0);
});

test('at a limit until its window ends (the latest of several), near from 80 %, else fine', () => {
  const limits = { ...NO_LIMITS, rpm: 10, rpd: 100 };
  const base = rolled(undefined, NOW);
  assert.deepEqual(budgetStanding(limits, { ...base, minuteRequests: 7 }), { type: 'ok' });
  assert.deepEqual(budgetStanding(limits, { ...base, minuteRequests: 8 }), { type: 'near' });
  assert.deepEqual(budgetStanding(limits, { ...base, minuteRequests: 10 }), {
    type: 'at',
    until: base.minute + MINUTE_MS,
  });
  assert.deepEqual(budgetStanding(limits, { ...base, minuteRequests: 10, dayRequests: 100 }), {
    type: 'at',
    until: DAY + DAY_MS,
  });
  assert.deepEqual(budgetStanding(NO_LIMITS, { ...base, heldUntil: NOW + 5000 }), {
    type: 'at',
    until: NOW + 5000,
  });
  assert.equal(dayShare(limits, { ...base, dayRequests: 25 }), 0.25);
  assert.equal(dayShare({ ...NO_LIMITS, rpm: 5 }, base), null);
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
});
