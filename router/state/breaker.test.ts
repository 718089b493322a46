import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakerSchema, type BreakerSettings } from '../config/schema.js';
import {
  cooldownFor,
  degradedAt,
  initialBreaker,
  isTrialDue,
  openUntil,
  recordFailure,
  recordSuccess,
  settle,
  type BreakerRecord,
} from './breaker.js';

const defaults: BreakerSettings = breakerSchema.parse({});
const T0 = 1_700_000_000_000;

function failTimes(rec: BreakerRecord, n: number, now: number, settings = defaults): BreakerRecord {
  let next = rec;
  for (let i = 0; i < n; i += 1) next = recordFailure(next, 'server_error', now, settings);
  return next;
}

test('cooldown sequence with defaults: 30, 60, 120, 240, then capped at 300 s', () => {
  const seq = [1, 2, 3, 4, 5, 6, 10].map((trip) => cooldownFor(trip, defaults));
  assert.deepEqual(seq, [30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000]);
  assert.equal(cooldownFor(0, defaults), 30_000);
});

test('a 1.5 multiplier is used as is, not rounded to 2', () => {
  const settings = { ...defaults, backoffMultiplier: 1.5, maxCooldownMs: 86_400_000 };
  assert.deepEqual(
    [1, 2, 3, 4].map((trip) => cooldownFor(trip, settings)),
    [30_000, 45_000, 67_500, 101_250],
  );
});

test('the cooldown is capped at 16× the initial one when maxCooldownMs is higher', () => {
  const settings = { ...defaults, maxCooldownMs: 86_400_000 };
  assert.equal(cooldownFor(5, settings), 480_000);
  assert.equal(cooldownFor(6, settings), 480_000);
  assert.equal(cooldownFor(100, settings), 480_000);
});

test('degradedAt is 60% of the threshold rounded up, at least 1', () => {
  assert.equal(degradedAt(defaults), 2);
  assert.equal(degradedAt({ ...defaults, failureThreshold: 5 }), 3);
  assert.equal(degradedAt({ ...defaults, failureThreshold: 1 }), 1);
  assert.equal(degradedAt({ ...defaults, failureThreshold: 10, degradedRatio: 0.1 }), 1);
});

test('CLOSED → DEGRADED at 2 of 3 failures → OPEN at 3', () => {
  const start = initialBreaker(T0, defaults);
  const one = recordFailure(start, 'timeout', T0 + 1, defaults);
  assert.equal(one.state, 'CLOSED');
  assert.equal(one.consecutiveFailures, 1);
  assert.equal(one.lastFailureKind, 'timeout');
  assert.equal(one.lastFailureAt, T0 + 1);
  assert.equal(one.updatedAt, T0 + 1);

  const two = recordFailure(one, 'empty_choices', T0 + 2, defaults);
  assert.equal(two.state, 'DEGRADED');
  assert.equal(two.consecutiveFailures, 2);
  assert.equal(two.tripCount, 0);

  const three = recordFailure(two, 'empty_stream', T0 + 3, defaults);
  assert.equal(three.state, 'OPEN');
  assert.equal(three.openedAt, T0 + 3);
  assert.equal(three.tripCount, 1);
  assert.equal(three.cooldownMs, 30_000);
  assert.equal(openUntil(three), T0 + 3 + 30_000);
  assert.equal(three.lastFailureKind, 'empty_stream');
});

test('threshold 1 opens at the first failure without passing through DEGRADED', () => {
  const settings = { ...defaults, failureThreshold: 1 };
  const rec = recordFailure(initialBreaker(T0, settings), 'server_error', T0, settings);
  assert.equal(rec.state, 'OPEN');
  assert.equal(rec.tripCount, 1);
});

test('OPEN settles lazily into HALF_OPEN once the cooldown has passed', () => {
  const open = failTimes(initialBreaker(T0, defaults), 3, T0);
  assert.equal(settle(open, T0 + 29_999), open);
  const half = settle(open, T0 + 30_000);
  assert.equal(half.state, 'HALF_OPEN');
  assert.equal(half.updatedAt, T0 + 30_000);
  assert.equal(openUntil(half), null);
  assert.equal(open.state, 'OPEN', 'the input is not mutated');
});

test('a failure while HALF_OPEN reopens with an escalated cooldown', () => {
  let rec = failTimes(initialBreaker(T0, defaults), 3, T0);
  const expected = [60_000, 120_000, 240_000, 300_000, 300_000];
  let now = T0;
  for (const [i, cooldown] of expected.entries()) {
    now += rec.cooldownMs;
    rec = settle(rec, now);
    assert.equal(rec.state, 'HALF_OPEN');
    rec = recordFailure(rec, 'timeout', now, defaults);
    assert.equal(rec.state, 'OPEN');
    assert.equal(rec.tripCount, i + 2);
    assert.equal(rec.cooldownMs, cooldown);
    assert.equal(rec.openedAt, now);
  }
});

test('a failure while OPEN is counted but neither re-trips nor extends the cooldown', () => {
  const open = failTimes(initialBreaker(T0, defaults), 3, T0);
  const again = recordFailure(open, 'network_error', T0 + 1000, defaults);
  assert.equal(again.state, 'OPEN');
  assert.equal(again.tripCount, 1);
  assert.equal(again.openedAt, T0);
  assert.equal(again.cooldownMs, 30_000);
  assert.equal(again.consecutiveFailures, 4);
  assert.equal(again.lastFailureKind, 'network_error');
});

test('a success closes the breaker, resets counters and cooldown, and keeps tripCount', () => {
  let rec = failTimes(initialBreaker(T0, defaults), 3, T0);
  rec = recordFailure(settle(rec, T0 + 30_000), 'timeout', T0 + 30_000, defaults);
  assert.equal(rec.tripCount, 2);
  const closed = recordSuccess(settle(rec, T0 + 90_000), T0 + 90_000, defaults, true);
  assert.equal(closed.state, 'CLOSED');
  assert.equal(closed.consecutiveFailures, 0);
  assert.equal(closed.cooldownMs, 30_000);
  assert.equal(closed.openedAt, null);
  assert.equal(closed.tripCount, 2);
  assert.equal(closed.updatedAt, T0 + 90_000);
  // The next trip starts where the last one left off.
  const reopened = failTimes(closed, 3, T0 + 100_000);
  assert.equal(reopened.tripCount, 3);
  assert.equal(reopened.cooldownMs, 120_000);
});

test('a success on a clean CLOSED breaker returns the same record', () => {
  const rec = initialBreaker(T0, defaults);
  assert.equal(recordSuccess(rec, T0 + 5, defaults, false), rec);
});

test('a success in DEGRADED clears the degradation', () => {
  const degraded = failTimes(initialBreaker(T0, defaults), 2, T0);
  assert.equal(degraded.state, 'DEGRADED');
  const closed = recordSuccess(degraded, T0 + 1, defaults, false);
  assert.equal(closed.state, 'CLOSED');
  assert.equal(closed.consecutiveFailures, 0);
  assert.equal(degraded.state, 'DEGRADED', 'the input is not mutated');
});

test('isTrialDue: HALF_OPEN yes; DEGRADED only after an initial cooldown without failures', () => {
  const closed = initialBreaker(T0, defaults);
  assert.equal(isTrialDue(closed, T0, defaults), false);

  const degraded = failTimes(closed, 2, T0);
  assert.equal(isTrialDue(degraded, T0 + 29_999, defaults), false);
  assert.equal(isTrialDue(degraded, T0 + 30_000, defaults), true);

  const open = failTimes(closed, 3, T0);
  assert.equal(isTrialDue(open, T0 + 10_000, defaults), false);
  // An OPEN record past its cooldown is a HALF_OPEN one not yet settled.
  assert.equal(isTrialDue(open, T0 + 30_000, defaults), true);
  assert.equal(isTrialDue(settle(open, T0 + 30_000), T0 + 30_000, defaults), true);
});

test('a success that is no trial leaves an OPEN or HALF_OPEN breaker as it is', () => {
  const open = failTimes(initialBreaker(T0, defaults), 3, T0);
  assert.equal(open.state, 'OPEN');
  // A request that was in flight when the breaker tripped: it proves nothing about the model now.
  assert.equal(recordSuccess(open, T0 + 10, defaults, false), open);
  const halfOpen = settle(open, T0 + 30_000);
  assert.equal(halfOpen.state, 'HALF_OPEN');
  assert.equal(recordSuccess(halfOpen, T0 + 30_001, defaults, false), halfOpen);
  const closed = recordSuccess(halfOpen, T0 + 30_001, defaults, true);
  assert.equal(closed.state, 'CLOSED');
  assert.equal(closed.tripCount, 1);
});
