import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deferred } from '../../test-support/deferred.js';
import { after, json } from '../../test-support/upstream-behaviours.js';
import { withScenario } from '../../test-support/scenario.js';
import { seededLatencyDir } from '../../test-support/latency-seed.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
const SETS = { main: ['alpha/m1', 'beta/m2'], plain: ['alpha/m1', 'beta/m2'] };
const FASTEST = { order: { main: 'fastest' as const }, exploration: 0.1 };

/** Rolls the router's dice: each request of a `fastest` set takes the next one (then "no exploration"). */
const rolls =
  (...values: number[]) =>
  () =>
    values.shift() ?? 0.99;

test('a fastest set serves from its quickest model; a priority set keeps the user’s order', async () => {
  const dir = await seededLatencyDir({ 'alpha/m1': { ttfbMs: 3000 }, 'beta/m2': { ttfbMs: 400 } });
  const options = { ...TWO, sets: SETS, ranking: FASTEST, random: rolls(), dir };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2');
    assert.equal((await router.chat({ model: 'fcm:plain' })).headers['x-fcm-v2-model'], 'alpha/m1');
  });
});

test('figures within the tie margin keep the user’s order', async () => {
  const dir = await seededLatencyDir({ 'alpha/m1': { ttfbMs: 450 }, 'beta/m2': { ttfbMs: 420 } });
  await withScenario(
    { ...TWO, sets: SETS, ranking: FASTEST, random: rolls(), dir },
    async ({ router, upstream }) => {
      upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
      assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    },
  );
});

test('a fastest set learns from its own traffic, exploring the model it knows least', async () => {
  // No figures yet: the user's order; the exploring request goes to the model never measured.
  await withScenario(
    { ...TWO, sets: SETS, ranking: FASTEST, random: rolls(0.99, 0.01, 0.99) },
    async ({ router, upstream }) => {
      // Alpha answers 400 ms into the request, on the router's clock; beta at once.
      const slow = deferred();
      upstream.always('alpha/m1', after(slow.promise, json('alpha'))).always('beta/m2', json('beta'));
      const first = router.chat();
      await upstream.nextCall('alpha/m1');
      router.clock.advance(400);
      slow.resolve();
      assert.equal((await first).headers['x-fcm-v2-model'], 'alpha/m1');
      assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2', 'exploration');
      assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2', 'now the fastest');
      assert.equal(router.model('alpha/m1').latency.ttfbMs, 400, 'alpha’s time to first byte');
      assert.equal(router.model('beta/m2').latency.samples, 2);
      await router.stop();
      const file = JSON.parse(await readFile(path.join(router.stateDir, 'latency.json'), 'utf8')) as {
        models: Record<string, unknown>;
      };
      assert.deepEqual(Object.keys(file.models).sort(), ['alpha/m1', 'beta/m2'], 'persisted');
    },
  );
});

test('a fastest set puts its fastest model behind the others once it is near its daily budget', async () => {
  const dir = await seededLatencyDir({ 'alpha/m1': { ttfbMs: 300 }, 'beta/m2': { ttfbMs: 2000 } });
  const options = {
    ...TWO,
    providerSettings: { alpha: { limits: { rpm: null, tpm: null, rpd: 5 } } },
    sets: SETS,
    ranking: FASTEST,
    random: rolls(),
    dir,
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('alpha')).always('beta/m2', json('beta'));
    for (let i = 0; i < 4; i += 1) assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    // 4 of 5 used today: near the limit, so the slower beta goes first.
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2');
    assert.equal(router.model('alpha/m1').blockedBy, null, 'near is not at: alpha is still routable');
  });
});
