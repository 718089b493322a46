import { test } from 'node:test';
import assert from 'node:assert/strict';
import { json, status } from '../../test-support/upstream-behaviours.js';
import { startFakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, withScenario } from '../../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
const THIRTY = status(429, { retryAfter: '30' });

/** One request that meets alpha's 429; what its pause is then: seconds from now, its repeat, whose word. */
async function pausedBy429(router: RouterHarness): Promise<[number, number, boolean]> {
  const at = router.clock.now();
  const reply = await router.chat();
  assert.equal(reply.headers['x-fcm-v2-model'], 'beta/m2');
  const pause = router.model('alpha/m1').quotaPause;
  assert.ok(pause !== null, 'alpha is paused');
  return [(pause.until - at) / 1000, pause.repeat, pause.fromProvider];
}

/** Moves the clock to 1 s after alpha's pause ran out. */
function pastPause(router: RouterHarness): void {
  const until = router.model('alpha/m1').quotaPausedUntil;
  assert.ok(until !== null);
  router.clock.advance(until - router.clock.now() + 1000);
}

test('a 429 met again as the pause runs out doubles it, up to 15 minutes; a success starts again', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('from beta'));
    const pauses: Array<[number, number, boolean]> = [];
    for (let i = 0; i < 7; i += 1) {
      upstream.script('alpha/m1', THIRTY);
      pauses.push(await pausedBy429(router));
      pastPause(router);
    }
    assert.deepEqual(pauses, [
      [30, 1, true],
      [60, 2, false],
      [120, 3, false],
      [240, 4, false],
      [480, 5, false],
      [900, 6, false],
      [900, 7, false],
    ]);
    assert.equal(upstream.callsTo('alpha/m1').length, 7, 'one attempt a pause, none while it ran');

    upstream.script('alpha/m1', json('rested'), THIRTY);
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    assert.deepEqual(await pausedBy429(router), [30, 1, true]);
  });
});

test('a 429 long after the last pause ran out is a first pause again', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('from beta'));
    upstream.script('alpha/m1', THIRTY, THIRTY);
    assert.deepEqual(await pausedBy429(router), [30, 1, true]);
    router.clock.advance(30_000 + 16 * 60_000);
    assert.deepEqual(await pausedBy429(router), [30, 1, true]);
  });
});

test('a key-wide limit met again as its pause runs out doubles the pause of every model of the key', async () => {
  // Mistral's limits are the key's across models (its catalogue entry): a 429 pauses the key.
  const upstream = await startFakeUpstream();
  const config = scenarioConfig(upstream, {
    providers: { mistral: ['m-a', 'm-b'], beta: ['m2'] },
    sets: { main: ['mistral/m-a', 'mistral/m-b', 'beta/m2'] },
  });
  const router = await startHarness({ config });
  try {
    upstream.always('beta/m2', json('from beta'));
    const lengths: Array<[number, number]> = [];
    for (let i = 0; i < 3; i += 1) {
      upstream.script('mistral/m-a', THIRTY);
      const at = router.clock.now();
      assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2');
      const pause = router.model('mistral/m-b').quotaPause;
      assert.ok(pause !== null && pause.scope === 'provider', 'the sibling waits with it');
      lengths.push([(pause.until - at) / 1000, pause.repeat]);
      router.clock.advance(pause.until - router.clock.now() + 1000);
    }
    assert.deepEqual(lengths, [
      [30, 1],
      [60, 2],
      [120, 3],
    ]);
    assert.equal(upstream.callsTo('mistral/m-b').length, 0);

    // One more 429 pauses the key again; Reset on the sibling's row lifts it, and the sibling serves.
    upstream.script('mistral/m-a', THIRTY);
    await router.chat();
    assert.equal(router.model('mistral/m-b').quotaPause?.repeat, 4);
    const reset = await router.api('POST', '/api/models/reset', { model: 'mistral/m-b' });
    assert.equal(reset.status, 200);
    assert.match(reset.text, /"pauseLifted":true/);
    assert.equal(router.model('mistral/m-b').quotaPause, null);
    upstream.script('mistral/m-b', json('from m-b'));
    const pinned = await router.chat({ model: 'fcm:@mistral/m-b' });
    assert.equal(pinned.headers['x-fcm-v2-model'], 'mistral/m-b');
  } finally {
    await router.close();
    await upstream.close();
  }
});
