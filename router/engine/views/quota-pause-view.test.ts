import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withScenario } from '../../test-support/scenario.js';
import { TestClock } from '../../test-support/test-clock.js';
import { status } from '../../test-support/upstream-behaviours.js';

test('a quota-paused model says what paused it: a 429 whose Retry-After set the length, or the router’s own pause', async () => {
  const clock = new TestClock();
  const options = { providers: { alpha: ['m1', 'm2'] }, clock };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(429, { retryAfter: '240' }));
    upstream.script('alpha/m2', status(429));
    await router.chat({ model: 'fcm:@alpha/m1' });
    await router.chat({ model: 'fcm:@alpha/m2' });

    const told = router.model('alpha/m1');
    assert.deepEqual(told.quotaPause, {
      until: clock.now() + 240_000,
      reason: 'rate_limit',
      fromProvider: true,
      scope: 'model',
      repeat: 1,
    });
    assert.equal(told.quotaPausedUntil, told.quotaPause?.until);
    const guessed = router.model('alpha/m2');
    assert.equal(guessed.quotaPause?.fromProvider, false);
    assert.equal(guessed.quotaPause?.reason, 'rate_limit');

    clock.advance(240_001);
    assert.equal(router.model('alpha/m1').quotaPause, null, 'the pause is over');
  });
});
