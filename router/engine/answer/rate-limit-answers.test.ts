/**
 * When nothing serves, 429 is the agent's answer only when rate limits (a 429's pause, a free-tier budget)
 * are all that hold the set back: a 429 promises that waiting its Retry-After helps. Any other reason beside
 * them (no key, an OPEN breaker, a provider out of credit or refusing the network's location) is a 503 with
 * Retry-After at the soonest moment a model is back; the request that makes the attempt and the one after
 * it, skipping, get the same, and the health verdict says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HealthVerdict, StateResponse } from '../../api-types.js';
import { parseReply, type HttpReply } from '../../test-support/http-client.js';
import type { RouterHarness } from '../../test-support/router-harness.js';
import { withScenario } from '../../test-support/scenario.js';
import { json, status } from '../../test-support/upstream-behaviours.js';

interface Told {
  status: number;
  code: string | undefined;
  retryAfter: string | undefined;
}

function told(reply: HttpReply): Told {
  const code = parseReply<{ error?: { code: string } }>(reply).error?.code;
  const retryAfter = reply.headers['retry-after'];
  return { status: reply.status, code, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined };
}

async function verdict(router: RouterHarness): Promise<HealthVerdict> {
  return parseReply<StateResponse>(await router.get('/api/state')).health;
}

const UNAVAILABLE = (retryAfter: string): Told => ({
  status: 503,
  code: 'all_models_unavailable',
  retryAfter,
});

test('a model paused for a 429 beside one without a key: 503 on every request, as the verdict says, and served once the pause ends', async () => {
  const options = {
    providers: { alpha: ['m1'] },
    extraProviders: { groq: { models: ['m9'] } },
    sets: { main: ['alpha/m1', 'groq/m9'] },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(429, { retryAfter: '60' }));
    assert.deepEqual(told(await router.chat()), UNAVAILABLE('60'), 'the request that met the 429');
    assert.deepEqual(told(await router.chat()), UNAVAILABLE('60'), 'the next one, which skips it');
    const health = await verdict(router);
    assert.match(health.reason, /agents get 503 until a pause ends/);
    assert.equal(health.backAt, router.clock.now() + 60_000);

    router.clock.advance(60_000);
    upstream.always('alpha/m1', json('ok'));
    assert.equal((await router.chat()).status, 200, 'a retry after Retry-After is served');
  });
});

test('a model paused for a 429 beside an OPEN one whose cooldown ends sooner: 503 with Retry-After at the cooldown’s end', async () => {
  const options = { providers: { alpha: ['m1'], beta: ['m2'] }, breaker: { initialCooldownMs: 10_000 } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('beta/m2', status(500));
    for (let i = 0; i < 3; i++) await router.chat({ model: 'fcm:@beta/m2' });
    assert.equal(router.model('beta/m2').state, 'OPEN');
    upstream.always('alpha/m1', status(429, { retryAfter: '120' }));
    assert.deepEqual(told(await router.chat()), UNAVAILABLE('10'));
    const health = await verdict(router);
    assert.equal(health.level, 'red');
    assert.doesNotMatch(health.reason, /429/);
    assert.equal(health.backAt, router.clock.now() + 10_000);
  });
});

test('a provider out of credit (402) or refusing the network’s location: the requests after it get 503, not 429, as the verdict says', async () => {
  const REGION = { error: { message: 'User location is not supported for the API use.', code: 400 } };
  for (const refusal of [status(402), status(400, { body: REGION })]) {
    await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
      upstream.always('alpha/m1', refusal);
      await router.chat();
      const next = told(await router.chat());
      assert.equal(next.status, 503);
      assert.equal(next.code, 'all_models_unavailable');
      assert.match((await verdict(router)).reason, /agents get 503 until a pause ends/);
    });
  }
});

test('rate limits and a spent free-tier budget alone: 429 on every request, as the verdict says, and served once the pause ends', async () => {
  const options = {
    providers: { alpha: ['m1'], beta: ['m2'] },
    providerSettings: { beta: { limits: { rpd: 1 } } },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('beta/m2', json('b'));
    await router.chat({ model: 'fcm:@beta/m2' });
    upstream.always('alpha/m1', status(429, { retryAfter: '60' }));
    const limited = { status: 429, code: 'rate_limit_exceeded', retryAfter: '60' };
    assert.deepEqual(told(await router.chat()), limited, 'the request that met the 429');
    assert.deepEqual(told(await router.chat()), limited, 'the next one, which skips both');
    const health = await verdict(router);
    assert.match(health.reason, /agents get 429 until a pause ends/);
    assert.equal(health.backAt, router.clock.now() + 60_000);

    router.clock.advance(60_000);
    upstream.always('alpha/m1', json('ok'));
    assert.equal((await router.chat()).status, 200, 'a retry after Retry-After is served');
  });
});
