import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StateResponse } from '../../api-types.js';
import { parseReply } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';
import { empty200, json, status } from '../../test-support/upstream-behaviours.js';

test('/api/state carries the health verdict: green, amber after a trip, a trial once the cooldown ends', async () => {
  await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('b'));
    const state = async () => parseReply<StateResponse>(await router.get('/api/state'));

    const fresh = await state();
    assert.equal(fresh.health.level, 'green');
    assert.equal(fresh.health.next, 'alpha/m1');
    assert.deepEqual(fresh.health.counts, { total: 2, routable: 2, closed: 2, out: 0 });

    upstream.script('alpha/m1', empty200(), empty200(), empty200());
    for (let i = 0; i < 3; i++) assert.equal((await router.chat({ model: 'fcm:@alpha/m1' })).status, 502);
    const tripped = await state();
    const alpha = tripped.models.find((m) => m.key === 'alpha/m1');
    assert.equal(alpha?.state, 'OPEN');
    assert.equal(tripped.health.level, 'amber');
    assert.equal(tripped.health.next, 'beta/m2');
    assert.equal(tripped.health.backAt, alpha?.openUntil);
    assert.match(tripped.health.reason, /1 of 2 models out \(1 OPEN\)/);

    router.clock.advance(61_000);
    const due = await state();
    assert.equal(due.health.title, 'on trial');
    assert.equal(due.health.next, 'alpha/m1');

    assert.equal((await router.api('POST', '/api/pause', { paused: true })).status, 200);
    const paused = await state();
    assert.equal(paused.health.level, 'red');
    assert.equal(paused.health.action, 'resume');
  });
});

test('a model of the set whose provider has no key is blocked for that reason, and named as out', async () => {
  await withScenario(
    { providers: { alpha: ['m1'] }, sets: { main: ['alpha/m1', 'groq/llama-3.3-70b-versatile'] } },
    async ({ router }) => {
      const state = parseReply<StateResponse>(await router.get('/api/state'));
      const groq = state.models.find((m) => m.key === 'groq/llama-3.3-70b-versatile');
      assert.equal(groq?.blockedBy, 'missing_key');
      assert.equal(state.models.find((m) => m.key === 'alpha/m1')?.blockedBy, null);
      assert.equal(state.health.level, 'amber');
      assert.equal(state.health.action, 'add_key');
      assert.match(state.health.reason, /1 without a key\): add keys in Providers/);
    },
  );
});

test('a DEGRADED model is behind the CLOSED ones until a cooldown without failure; then /api/state names its trial', async () => {
  await withScenario({ providers: { alpha: ['m1'], beta: ['m2'] } }, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('b'));
    const state = async () => parseReply<StateResponse>(await router.get('/api/state'));
    upstream.script('alpha/m1', empty200(), empty200());
    for (let i = 0; i < 2; i++) assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2');

    const degraded = await state();
    const alpha = degraded.models.find((m) => m.key === 'alpha/m1');
    assert.equal(alpha?.state, 'DEGRADED');
    const dueAt = alpha.trialDueAt ?? 0;
    assert.ok(alpha.lastFailureAt !== null && dueAt > alpha.lastFailureAt, 'a cooldown after its failure');
    assert.equal(degraded.health.next, 'beta/m2');
    router.clock.set(dueAt - 1);
    assert.equal((await state()).health.next, 'beta/m2', 'not yet');

    router.clock.set(dueAt);
    const due = await state();
    assert.equal(due.health.next, 'alpha/m1');
    assert.equal(due.health.title, 'on trial');
    assert.match(due.health.reason, /^next request goes to a trial of alpha\/m1; 1 CLOSED behind it$/);
    upstream.always('alpha/m1', json('a'));
    assert.equal(
      (await router.chat()).headers['x-fcm-v2-model'],
      'alpha/m1',
      'the request goes where it said',
    );
    assert.equal((await state()).models.find((m) => m.key === 'alpha/m1')?.trialDueAt, null, 'CLOSED again');
  });
});

test('nothing routable, keys refused and the rest paused for a 429: agents get 429, and the verdict says so and what to do', async () => {
  const providers = { a: ['m'], b: ['m'], c: ['m'], d: ['m'] };
  await withScenario({ providers }, async ({ router, upstream }) => {
    upstream.always('a/m', status(401)).always('b/m', status(401));
    upstream
      .always('c/m', status(429, { retryAfter: '120' }))
      .always('d/m', status(429, { retryAfter: '60' }));
    const met = await router.chat();
    assert.equal(met.status, 429, 'the request that met the refused keys and the rate limits');
    assert.equal(met.headers['retry-after'], '60');
    const refused = await router.chat();
    assert.equal(refused.status, 429);
    assert.equal(parseReply<{ error: { code: string } }>(refused).error.code, 'rate_limit_exceeded');
    assert.equal(refused.headers['retry-after'], '60');

    const { health } = parseReply<StateResponse>(await router.get('/api/state'));
    assert.equal(health.next, null);
    assert.equal(health.action, 'check_keys');
    assert.equal(health.backAt, router.clock.now() + 60_000);
    assert.equal(
      health.reason,
      'no model can take a request (2 quota-paused, 2 key refused): agents get 429 until a pause ends; replace the refused keys in Providers, or wait',
    );
  });
});

test('every model quota-paused: the verdict says agents get 429 until a pause ends', async () => {
  await withScenario({ providers: { c: ['m'], d: ['m'] } }, async ({ router, upstream }) => {
    upstream
      .always('c/m', status(429, { retryAfter: '120' }))
      .always('d/m', status(429, { retryAfter: '60' }));
    await router.chat();
    assert.equal((await router.chat()).status, 429);
    const { health } = parseReply<StateResponse>(await router.get('/api/state'));
    assert.equal(health.level, 'amber');
    assert.equal(health.next, null);
    assert.equal(
      health.reason,
      'every usable model is quota-paused (2 quota-paused): agents get 429 until a pause ends',
    );
  });
});
