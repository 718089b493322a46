import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRoutable, nextTimedChange, readinessOf } from './model-readiness.js';
import { model } from './testing/fixtures.js';

const NOW = 1_000_000;

test('readinessOf follows the router ranking: provider blocks first, then quota, then breaker', () => {
  assert.equal(readinessOf(model('a/x'), NOW), 'ready');
  assert.equal(readinessOf(model('a/x', { state: 'DEGRADED' }), NOW), 'degraded');
  assert.equal(readinessOf(model('a/x', { state: 'HALF_OPEN' }), NOW), 'half_open');
  assert.equal(readinessOf(model('a/x', { state: 'OPEN', openUntil: NOW + 1 }), NOW), 'open');
  assert.equal(readinessOf(model('a/x', { state: 'OPEN', openUntil: null }), NOW), 'open');
  assert.equal(readinessOf(model('a/x', { quotaPausedUntil: NOW + 5, state: 'OPEN' }), NOW), 'quota_paused');
  assert.equal(
    readinessOf(model('a/x', { authBlocked: true, quotaPausedUntil: NOW + 5 }), NOW),
    'key_invalid',
  );
  assert.equal(readinessOf(model('a/x', { missingKey: true, authBlocked: true }), NOW), 'no_key');
  assert.equal(readinessOf(model('a/x', { providerEnabled: false, missingKey: true }), NOW), 'disabled');
});

test('an OPEN breaker whose cooldown ran out counts as a trial, and an expired quota pause as ready', () => {
  assert.equal(readinessOf(model('a/x', { state: 'OPEN', openUntil: NOW }), NOW), 'half_open');
  assert.equal(readinessOf(model('a/x', { quotaPausedUntil: NOW - 1 }), NOW), 'ready');
});

test('the tray reads a quota block as ranking and the health verdict do: by the router’s own reason to skip', () => {
  // A spent free-tier budget with no known end is skipped: paused, whatever the breaker.
  assert.equal(
    readinessOf(model('a/x', { blockedBy: 'quota_budget', quotaPausedUntil: null }), NOW),
    'quota_paused',
  );
  // A pause the router does not skip the model for (another way to it is free) leaves it to its breaker.
  assert.equal(readinessOf(model('a/x', { blockedBy: null, quotaPausedUntil: NOW + 5 }), NOW), 'ready');
});

test('isRoutable: ready, degraded and trials are routable, the rest is not', () => {
  assert.deepEqual(
    (
      ['ready', 'degraded', 'half_open', 'open', 'quota_paused', 'key_invalid', 'no_key', 'disabled'] as const
    ).map(isRoutable),
    [true, true, true, false, false, false, false, false],
  );
});

test('nextTimedChange is the earliest future cooldown or quota end, ignoring the past and closed breakers', () => {
  const models = [
    model('a/x', { state: 'OPEN', openUntil: NOW + 5000 }),
    model('a/y', { quotaPausedUntil: NOW + 2000 }),
    model('a/z', { state: 'OPEN', openUntil: NOW - 10 }),
    model('a/w', { state: 'CLOSED', openUntil: NOW + 100 }),
  ];
  assert.equal(nextTimedChange(models, NOW), NOW + 2000);
  assert.equal(nextTimedChange([model('a/x')], NOW), null);
});

test("nextTimedChange counts a DEGRADED model's trial coming due, and no other state's trial time", () => {
  const degraded = model('a/x', { state: 'DEGRADED', trialDueAt: NOW + 3000 });
  assert.equal(nextTimedChange([degraded, model('a/y', { quotaPausedUntil: NOW + 4000 })], NOW), NOW + 3000);
  assert.equal(nextTimedChange([model('a/x', { state: 'DEGRADED', trialDueAt: NOW })], NOW), null);
  assert.equal(nextTimedChange([model('a/x', { trialDueAt: NOW + 3000 })], NOW), null);
});

test("readinessOf reads the router's skip reason: an unknown provider, a vanished model, no URL are unreachable", () => {
  for (const blockedBy of ['unknown_model', 'model_vanished', 'provider_unresolvable'] as const)
    assert.equal(readinessOf(model('a/x', { blockedBy, providerEnabled: false }), NOW), 'unreachable');
  assert.equal(isRoutable('unreachable'), false);
});

test('a DEGRADED model whose trial is due is on trial; before that, degraded', () => {
  assert.equal(readinessOf(model('a/x', { state: 'DEGRADED', trialDueAt: NOW }), NOW), 'half_open');
  assert.equal(readinessOf(model('a/x', { state: 'DEGRADED', trialDueAt: NOW + 1 }), NOW), 'degraded');
});
