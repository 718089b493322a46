import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectAlerts } from './health-alerts.js';
import { model, snapshot } from './testing/fixtures.js';

const NOW = 5_000_000;
const open = {
  state: 'OPEN' as const,
  openUntil: NOW + 30_000,
  tripCount: 1,
  lastFailureKind: 'empty_choices' as const,
};

test('the first snapshot is the baseline and alerts nothing', () => {
  assert.deepEqual(detectAlerts(null, snapshot([model('a/x', open)]), NOW), []);
});

test('a model of the active set that trips OPEN alerts once; outside the set it does not', () => {
  const prev = snapshot([model('a/x'), model('a/y'), model('b/z', { inActiveSet: false })]);
  const next = snapshot([model('a/x', open), model('a/y'), model('b/z', { ...open, inActiveSet: false })]);
  assert.deepEqual(detectAlerts(prev, next, NOW), [
    { kind: 'model-open', model: 'a/x', cooldownMs: 30_000, lastFailureKind: 'empty_choices' },
  ]);
  assert.deepEqual(detectAlerts(next, next, NOW), []);
});

test('a failed trial that re-opens the breaker (trip count grows) alerts again', () => {
  const prev = snapshot([model('a/x', open), model('a/y')]);
  const next = snapshot([model('a/x', { ...open, tripCount: 2, cooldownMs: 60_000 }), model('a/y')]);
  assert.equal(detectAlerts(prev, next, NOW)[0]?.kind, 'model-open');
});

test('a newly refused key alerts once per provider', () => {
  const prev = snapshot([model('g/a'), model('g/b'), model('h/c')]);
  const next = snapshot([
    model('g/a', { authBlocked: true }),
    model('g/b', { authBlocked: true }),
    model('h/c'),
  ]);
  assert.deepEqual(detectAlerts(prev, next, NOW), [{ kind: 'key-invalid', provider: 'g' }]);
});

test('losing the last routable model alerts nothing-routable, together with the trip', () => {
  const prev = snapshot([model('a/x'), model('a/y', open)]);
  const next = snapshot([model('a/x', open), model('a/y', open)]);
  assert.deepEqual(
    detectAlerts(prev, next, NOW).map((a) => a.kind),
    ['model-open', 'nothing-routable'],
  );
  // Already nothing routable before: no repeat.
  assert.deepEqual(detectAlerts(next, next, NOW), []);
});

test('paused routing alerts nothing', () => {
  const prev = snapshot([model('a/x')]);
  const next = snapshot([model('a/x', open)], { paused: true });
  assert.deepEqual(detectAlerts(prev, next, NOW), []);
});
