import { expect, test } from 'vitest';
import { modelView } from '../test-support/fixtures.js';
import { ignoredForcedWords, outReason, refusalWords } from './model-reason.js';

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
  ).toBe('tripped (trip 3) on server_error — the provider answered 5xx');
  expect(outReason(modelView('a/x', { state: 'OPEN', openUntil: 900 }), now)).toMatch(/cooldown over/);
  expect(
    outReason(
      modelView('a/x', { state: 'DEGRADED', consecutiveFailures: 2, lastFailureKind: 'timeout' }),
      now,
    ),
  ).toBe(
    '2 failures since the last success on timeout — no response headers in time: routed behind healthy models',
  );
  expect(
    outReason(
      modelView('a/x', { state: 'DEGRADED', consecutiveFailures: 1, lastFailureKind: 'empty_choices' }),
      now,
    ),
  ).toMatch(/on empty_choices — HTTP 200 with no choices:/);
  expect(
    outReason(
      modelView('a/x', {
        state: 'DEGRADED',
        consecutiveFailures: 1,
        lastFailureKind: 'timeout',
        trialDueAt: 1000,
      }),
      now,
    ),
  ).toBe(
    '1 failure since the last success on timeout — no response headers in time: no new failure for a cooldown, so the next request is its trial',
  );
  expect(
    outReason(modelView('a/x', { state: 'DEGRADED', consecutiveFailures: 1, trialDueAt: 1001 }), now),
  ).toBe('1 failure since the last success: routed behind healthy models');
  expect(
    outReason(modelView('a/x', { state: 'OPEN', openUntil: 9000, lastFailureKind: 'html_maintenance' }), now),
  ).toBe('tripped on html_maintenance — an HTML page instead of JSON (maintenance or captive page)');
});

test('a CLOSED model the offline rule spared says it was unreachable, not blamed', () => {
  expect(outReason(modelView('a/x'), 1000, true)).toBe(
    'unreachable, not held against the model (no provider answered: check the connection)',
  );
  expect(outReason(modelView('a/x', { blockedBy: 'missing_key' }), 1000, true)).toBe('no API key configured');
});

test('a model that refused a request another model served says so, with when; else nothing', () => {
  expect(refusalWords(modelView('a/x'))).toBeNull();
  const at = new Date(2026, 11, 3, 14, 5).getTime();
  expect(outReason(modelView('a/x', { refusedServedAt: at }), at)).toMatch(/^refused a request/);
  expect(refusalWords(modelView('a/x', { refusedServedAt: at }))).toBe(
    'refused a request another model served, at 14:05: routed behind the others for an hour from then, or until it serves an agent',
  );
});

test('a model that ignored a forced tool call another model made says so, with when; else nothing', () => {
  expect(ignoredForcedWords(modelView('a/x'))).toBeNull();
  const at = new Date(2026, 11, 3, 10, 42).getTime();
  expect(outReason(modelView('a/x', { ignoredForcedAt: at }), at)).toMatch(/^ignored a forced tool call/);
  expect(ignoredForcedWords(modelView('a/x', { ignoredForcedAt: at }))).toBe(
    'ignored a forced tool call another model made, at 10:42: asked last for requests forcing one for an hour from then, or until it makes one',
  );
});
