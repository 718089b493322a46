/**
 * When nothing serves, 429 is the agent's answer when rate limits (a 429's pause, a free-tier budget) are
 * what hold the set back: a 429 promises that waiting its Retry-After helps. Models that will never serve
 * the request by themselves (no key, a provider switched off, too small for it, without the tools it uses)
 * are not waited for and leave the 429 as it is; anything that passes by itself beside the rate limits (an
 * OPEN breaker, a provider out of credit or refusing the network's location) is a 503 with Retry-After at
 * the soonest moment a model is back. The request that makes the attempt and the one after it, skipping,
 * get the same, and the health verdict says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HealthVerdict, StateResponse } from '../../api-types.js';
import { parseReply, type HttpReply } from '../../test-support/http-client.js';
import type { RouterHarness } from '../../test-support/router-harness.js';
import { withScenario } from '../../test-support/scenario.js';
import { noTools } from '../../test-support/fit-behaviours.js';
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

const LIMITED = (retryAfter: string): Told => ({ status: 429, code: 'rate_limit_exceeded', retryAfter });

test('a model paused for a 429 beside one without a key: 429 on every request, as the verdict says, and served once the pause ends', async () => {
  const options = {
    providers: { alpha: ['m1'] },
    extraProviders: { groq: { models: ['m9'] } },
    sets: { main: ['alpha/m1', 'groq/m9'] },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(429, { retryAfter: '60' }));
    assert.deepEqual(told(await router.chat()), LIMITED('60'), 'the request that met the 429');
    assert.deepEqual(told(await router.chat()), LIMITED('60'), 'the next one, which skips it');
    const health = await verdict(router);
    assert.match(health.reason, /agents get 429 until a pause ends; add keys in Providers, or wait$/);
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
    assert.deepEqual(told(await router.chat()), LIMITED('60'), 'the request that met the 429');
    assert.deepEqual(told(await router.chat()), LIMITED('60'), 'the next one, which skips both');
    const health = await verdict(router);
    assert.match(health.reason, /agents get 429 until a pause ends/);
    assert.equal(health.backAt, router.clock.now() + 60_000);

    router.clock.advance(60_000);
    upstream.always('alpha/m1', json('ok'));
    assert.equal((await router.chat()).status, 200, 'a retry after Retry-After is served');
  });
});

const prompt = (words: number) => ({ messages: [{ role: 'user', content: 'word '.repeat(words) }] });

test('a model paused for a 429 beside one too small for the request: 429 with Retry-After at the pause’s end; a request too large for both is still a 400', async () => {
  const options = {
    providers: { alpha: ['m1'], beta: ['m2'] },
    providerSettings: {
      alpha: { modelFit: { m1: { contextWindow: 32_000 } } },
      beta: { modelFit: { m2: { contextWindow: 8000 } } },
    },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(429, { retryAfter: '60' }));
    assert.deepEqual(told(await router.chat(prompt(9000))), LIMITED('60'), 'the request that met the 429');
    router.clock.advance(20_000);
    assert.deepEqual(told(await router.chat(prompt(9000))), LIMITED('40'), 'the next one, which skips both');
    assert.equal(upstream.callsTo('beta/m2').length, 0, 'the small model was never asked');
    const health = await verdict(router);
    assert.equal(health.next, 'beta/m2', 'a request it fits goes to the small model');
    assert.doesNotMatch(health.reason, /503/);

    const tooLarge = told(await router.chat(prompt(40_000)));
    assert.deepEqual(tooLarge, { status: 400, code: 'context_length_exceeded', retryAfter: undefined });
  });
});

test('a model paused for a 429 beside a provider switched off: 429, as the verdict says', async () => {
  const options = {
    providers: { alpha: ['m1'], beta: ['m2'] },
    providerSettings: { beta: { enabled: false } },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(429, { retryAfter: '60' }));
    assert.deepEqual(told(await router.chat()), LIMITED('60'), 'the request that met the 429');
    assert.deepEqual(told(await router.chat()), LIMITED('60'), 'the next one, which skips both');
    const health = await verdict(router);
    assert.equal(
      health.reason,
      'every usable model is quota-paused (1 quota-paused): agents get 429 until a pause ends',
    );
  });
});

test('a model that refused the request’s tools beside one that met a 429: 429 on the request that met both and on the next', async () => {
  const tools = [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }];
  const body = { messages: [{ role: 'user', content: 'hi' }], tools };
  await withScenario({ providers: { beta: ['m2'], alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('beta/m2', noTools()).always('alpha/m1', status(429, { retryAfter: '60' }));
    assert.deepEqual(told(await router.chat(body)), LIMITED('60'), 'the request both were asked');
    assert.deepEqual(told(await router.chat(body)), LIMITED('60'), 'the next one, which skips both');
    assert.equal(upstream.callsTo('beta/m2').length, 1, 'the refusal was learnt');
  });
});
