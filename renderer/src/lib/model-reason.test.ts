import { expect, test } from 'vitest';
import { modelView } from '../test-support/fixtures.js';
import { outReason } from './model-reason.js';

test('why a model is out: its block first, then its breaker, with the failure kind', () => {
  const now = 1000;
  expect(outReason(modelView('a/x'), now)).toBeNull();
  expect(outReason(modelView('a/x', { blockedBy: 'missing_key' }), now)).toBe('no API key configured');
  expect(outReason(modelView('a/x', { blockedBy: 'quota_paused', quotaPausedUntil: 5000 }), now)).toBe(
    'quota pause running',
  );
  expect(outReason(modelView('a/x', { blockedBy: 'quota_paused', quotaPausedUntil: 500 }), now)).toBeNull();
  expect(
    outReason(
      modelView('a/x', { state: 'OPEN', openUntil: 9000, lastFailureKind: 'server_error', tripCount: 3 }),
      now,
    ),
  ).toBe('tripped on server_error (trip 3)');
  expect(outReason(modelView('a/x', { state: 'OPEN', openUntil: 900 }), now)).toMatch(/cooldown over/);
  expect(
    outReason(
      modelView('a/x', { state: 'DEGRADED', consecutiveFailures: 2, lastFailureKind: 'timeout' }),
      now,
    ),
  ).toBe('2 failures since the last success on timeout: routed behind healthy models');
});
