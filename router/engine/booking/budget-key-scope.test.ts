import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProvidersResponse } from '../../api-types.js';
import type { ConfigInput } from '../../config/schema.js';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig } from '../../test-support/scenario.js';
import { json, status, type Behaviour } from '../../test-support/upstream-behaviours.js';

/**
 * Mistral's free limits are the organisation's across models, and Codestral is served by the same endpoint
 * and key: both count budgets, and take 429 pauses, per key rather than per model.
 */
const ORG_WIDE = ['mistral', 'codestral'] as const;

/** Two models of `provider` at 2 requests a day, each first in its own set, beta/m2 after it. */
function orgConfig(upstream: FakeUpstream, provider: string): ConfigInput {
  const config = scenarioConfig(upstream, {
    providers: { [provider]: ['m-a', 'm-b'], beta: ['m2'] },
    sets: { a: [`${provider}/m-a`, 'beta/m2'], b: [`${provider}/m-b`, 'beta/m2'] },
  });
  const providers = config.providers ?? {};
  const own = providers[provider];
  assert.ok(own);
  providers[provider] = { ...own, limits: { rpm: null, tpm: null, rpd: 2 } };
  return config;
}

async function withOrg(
  provider: string,
  run: (router: RouterHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    router = await startHarness({ config: orgConfig(upstream, provider) });
    upstream
      .always(`${provider}/m-a`, json('a'))
      .always(`${provider}/m-b`, json('b'))
      .always('beta/m2', json('beta'));
    await run(router, upstream);
  } finally {
    await router?.close();
    await upstream.close();
  }
}

for (const provider of ORG_WIDE) {
  test(`${provider}: a daily budget is reached across two models of one key`, async () => {
    await withOrg(provider, async (router, upstream) => {
      const served = async (set: string): Promise<unknown> =>
        (await router.chat({ model: `fcm:${set}` })).headers['x-fcm-v2-model'];
      assert.equal(await served('a'), `${provider}/m-a`);
      assert.equal(await served('b'), `${provider}/m-b`);
      // One request on each model: the key's 2 a day are spent for both.
      assert.equal(await served('a'), 'beta/m2');
      assert.deepEqual(router.lastEntry().skipped, [{ model: `${provider}/m-a`, reason: 'quota_budget' }]);
      assert.equal(await served('b'), 'beta/m2');
      assert.deepEqual(router.lastEntry().skipped, [{ model: `${provider}/m-b`, reason: 'quota_budget' }]);
      assert.equal(upstream.callsTo(`${provider}/m-a`).length, 1);
      assert.equal(upstream.callsTo(`${provider}/m-b`).length, 1);
    });
  });

  test(`${provider}: a 429 on one model pauses the key for its other models`, async () => {
    await withOrg(provider, async (router, upstream) => {
      upstream.script(`${provider}/m-a`, status(429, { retryAfter: '30' }));
      const first = await router.chat({ model: 'fcm:a' });
      assert.equal(
        first.headers['x-fcm-v2-decision'],
        `beta/m2!served|${provider}/m-a:429->beta/m2:200|skips=0`,
      );
      const other = await router.chat({ model: 'fcm:b' });
      assert.equal(other.headers['x-fcm-v2-model'], 'beta/m2');
      assert.deepEqual(router.lastEntry().skipped, [{ model: `${provider}/m-b`, reason: 'quota_paused' }]);
      assert.equal(upstream.callsTo(`${provider}/m-b`).length, 0);
      router.clock.advance(31_000);
      assert.equal((await router.chat({ model: 'fcm:b' })).headers['x-fcm-v2-model'], `${provider}/m-b`);
    });
  });
}

/** Mistral and Codestral, each with one model at 2 requests a day, and `keys` for them; beta/m2 after. */
function sharedAccountConfig(upstream: FakeUpstream, keys: Record<string, string>): ConfigInput {
  const config = scenarioConfig(upstream, {
    providers: { mistral: ['m-a'], codestral: ['c-a'], beta: ['m2'] },
    sets: { m: ['mistral/m-a', 'beta/m2'], c: ['codestral/c-a', 'beta/m2'] },
    keys,
  });
  const providers = config.providers ?? {};
  for (const id of ['mistral', 'codestral']) {
    const own = providers[id];
    assert.ok(own);
    providers[id] = { ...own, limits: { rpm: null, tpm: null, rpd: 2 } };
  }
  return config;
}

/** Runs `run` against the shared-account config, Mistral's model doing `mistral`, the others answering. */
async function withSharedAccount(
  keys: Record<string, string>,
  mistral: Behaviour,
  run: (router: RouterHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  const router = await startHarness({ config: sharedAccountConfig(upstream, keys) });
  try {
    upstream.always('mistral/m-a', mistral).always('codestral/c-a', json('c')).always('beta/m2', json('b'));
    await run(router, upstream);
  } finally {
    await router.close();
    await upstream.close();
  }
}

for (const [name, keys, codestralServes] of [
  [
    'one key on Mistral and Codestral counts once against the organisation',
    { mistral: 'org', codestral: 'org' },
    false,
  ],
  ['Codestral with a key of its own counts apart', { mistral: 'org', codestral: 'other' }, true],
] as const) {
  test(name, async () => {
    await withSharedAccount(keys, json('m'), async (router) => {
      const served = async (set: string): Promise<unknown> =>
        (await router.chat({ model: `fcm:${set}` })).headers['x-fcm-v2-model'];
      assert.equal(await served('m'), 'mistral/m-a');
      assert.equal(await served('m'), 'mistral/m-a');
      assert.equal(await served('c'), codestralServes ? 'codestral/c-a' : 'beta/m2');
      if (!codestralServes)
        assert.deepEqual(router.lastEntry().skipped, [{ model: 'codestral/c-a', reason: 'quota_budget' }]);
    });
  });
}

for (const [name, keys, codestralServes] of [
  [
    'one key on Mistral and Codestral: a 429 on Mistral pauses the key on Codestral too',
    { mistral: 'org', codestral: 'org' },
    false,
  ],
  ['a 429 on Mistral leaves a Codestral key of its own alone', { mistral: 'org', codestral: 'other' }, true],
] as const) {
  test(name, async () => {
    await withSharedAccount(keys, status(429, { retryAfter: '30' }), async (router, upstream) => {
      const first = await router.chat({ model: 'fcm:m' });
      assert.equal(first.headers['x-fcm-v2-decision'], 'beta/m2!served|mistral/m-a:429->beta/m2:200|skips=0');
      const other = await router.chat({ model: 'fcm:c' });
      if (codestralServes) {
        assert.equal(other.headers['x-fcm-v2-model'], 'codestral/c-a');
      } else {
        // The organisation's limit answered: the same key is not sent to its other endpoint for another 429.
        assert.equal(other.headers['x-fcm-v2-model'], 'beta/m2');
        assert.deepEqual(router.lastEntry().skipped, [{ model: 'codestral/c-a', reason: 'quota_paused' }]);
        assert.equal(upstream.callsTo('codestral/c-a').length, 0);
        const view = JSON.parse((await router.get('/api/providers')).text) as ProvidersResponse;
        const codestral = view.providers.find((provider) => provider.id === 'codestral');
        assert.deepEqual(
          codestral?.keys.map((key) => key.state),
          ['paused'],
        );
        router.clock.advance(31_000);
        assert.equal((await router.chat({ model: 'fcm:c' })).headers['x-fcm-v2-model'], 'codestral/c-a');
      }
    });
  });
}
