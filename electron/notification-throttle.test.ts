import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HealthAlert } from './health-alerts.js';
import { NotificationThrottle } from './notification-throttle.js';

const trip = (model: string, cooldownMs = 30_000): HealthAlert => ({
  kind: 'model-open',
  model,
  cooldownMs,
  lastFailureKind: 'rate_limit',
});

function setup(): { throttle: NotificationThrottle; advance: (ms: number) => void } {
  let now = 1_000_000;
  const throttle = new NotificationThrottle({ clock: () => now });
  return { throttle, advance: (ms) => (now += ms) };
}

test('one notification per model per cooldown, never more often than the floor', () => {
  const { throttle, advance } = setup();
  throttle.offer([trip('a/x', 120_000)]);
  assert.deepEqual(throttle.flush(), [
    {
      title: 'Model tripped: a/x',
      body: 'Skipped for 2 min after repeated failures (last failure: rate_limit). Other models take over.',
    },
  ]);
  advance(90_000);
  throttle.offer([trip('a/x', 120_000)]);
  assert.deepEqual(throttle.flush(), [], 'still within the model cooldown');
  advance(30_000);
  throttle.offer([trip('a/x', 120_000)]);
  assert.equal(throttle.flush().length, 1, 'cooldown over');

  // A 5 s cooldown is held to the 60 s floor.
  throttle.offer([trip('b/y', 5000)]);
  assert.equal(throttle.flush().length, 1);
  advance(10_000);
  throttle.offer([trip('b/y', 5000)]);
  assert.equal(throttle.flush().length, 0);
});

test('many alerts at once become one summary; nothing-routable leads it', () => {
  const { throttle } = setup();
  throttle.offer([trip('a/1'), trip('a/2'), trip('a/3'), trip('a/4')]);
  throttle.offer([
    { kind: 'key-invalid', provider: 'groq' },
    { kind: 'nothing-routable', activeSet: 'default' },
  ]);
  assert.equal(throttle.hasPending, true);
  assert.deepEqual(throttle.flush(), [
    {
      title: 'Nothing routable',
      body: 'No model of set "default" is available. 4 models tripped: a/1, a/2, a/3 and 1 more; key refused: groq.',
    },
  ]);
  assert.equal(throttle.hasPending, false);
  assert.deepEqual(throttle.flush(), []);
});

test('two alerts stay separate; a summary without nothing-routable counts them', () => {
  const { throttle } = setup();
  throttle.offer([trip('a/1'), { kind: 'key-invalid', provider: 'groq' }]);
  assert.deepEqual(
    throttle.flush().map((n) => n.title),
    ['Model tripped: a/1', 'groq key refused'],
  );
  throttle.offer([trip('b/1'), trip('b/2'), trip('b/3')]);
  assert.deepEqual(throttle.flush(), [
    { title: '3 router alerts', body: '3 models tripped: b/1, b/2, b/3.' },
  ]);
});

test('the same alert offered twice in a batch counts once; throttled alerts do not make a summary', () => {
  const { throttle } = setup();
  throttle.offer([trip('a/1')]);
  assert.equal(throttle.flush().length, 1);
  throttle.offer([trip('a/1'), trip('a/1'), trip('a/1'), trip('c/1')]);
  assert.deepEqual(
    throttle.flush().map((n) => n.title),
    ['Model tripped: c/1'],
  );
});

test('key and nothing-routable notifications have their own intervals', () => {
  const { throttle, advance } = setup();
  const key: HealthAlert = { kind: 'key-invalid', provider: 'groq' };
  const none: HealthAlert = { kind: 'nothing-routable', activeSet: 'default' };
  throttle.offer([key, none]);
  assert.equal(throttle.flush().length, 2);
  advance(299_000);
  throttle.offer([key, none]);
  assert.equal(throttle.flush().length, 0);
  advance(1000);
  throttle.offer([key, none]);
  assert.deepEqual(
    throttle.flush().map((n) => n.title),
    ['Nothing routable'],
  );
  advance(300_000);
  throttle.offer([key]);
  assert.deepEqual(
    throttle.flush().map((n) => n.title),
    ['groq key refused'],
  );
});
