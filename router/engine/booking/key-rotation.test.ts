import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProvidersResponse } from '../../api-types.js';
import { keyFingerprint } from '../../state/key-fingerprint.js';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig } from '../../test-support/scenario.js';
import { json, status, type Behaviour } from '../../test-support/upstream-behaviours.js';

const KEYS = ['sk-alpha-one', 'sk-alpha-two', 'sk-alpha-three'];
const FP = KEYS.map(keyFingerprint);

/** Answers by the key the call carries: `byKey[i]` for `KEYS[i]`. */
function perKey(...byKey: Behaviour[]): Behaviour {
  return (res, call) => {
    const index = KEYS.findIndex((key) => call.headers.authorization === `Bearer ${key}`);
    const behaviour = byKey[index];
    if (!behaviour) throw new Error(`no behaviour for key ${index}`);
    return behaviour(res, call);
  };
}

/** alpha (three keys: one in `apiKey`, two in `apiKeys`) then beta, one model each. */
async function withKeys(
  run: (router: RouterHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    const config = scenarioConfig(upstream, { providers: { alpha: ['m1'], beta: ['m2'] } });
    const alpha = config.providers?.['alpha'];
    assert.ok(alpha);
    config.providers = { ...config.providers, alpha: { ...alpha, apiKey: KEYS[0], apiKeys: KEYS.slice(1) } };
    router = await startHarness({ config });
    await run(router, upstream);
  } finally {
    await router?.close();
    await upstream.close();
  }
}

async function keyStates(router: RouterHarness): Promise<{ fingerprint: string; state: string }[]> {
  const reply = await router.api('GET', '/api/providers');
  const alpha = (JSON.parse(reply.text) as ProvidersResponse).providers.find(
    (provider) => provider.id === 'alpha',
  );
  return (alpha?.keys ?? []).map(({ fingerprint, state }) => ({ fingerprint, state }));
}

test('a 429 on one key moves to the same model on the next key before the next model', async () => {
  await withKeys(async (router, upstream) => {
    upstream.always('alpha/m1', perKey(status(429, { retryAfter: '60' }), json('second key'), json('x')));
    upstream.always('beta/m2', json('beta'));
    const reply = await router.chat();
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:429->alpha/m1:200|skips=0');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
    const attempts = router.lastEntry().attempts;
    assert.deepEqual(
      attempts.map((attempt) => attempt.key),
      [FP[0], FP[1]],
      'the trace names each key by its fingerprint',
    );
    assert.deepEqual(await keyStates(router), [
      { fingerprint: FP[0], state: 'paused' },
      { fingerprint: FP[1], state: 'usable' },
      { fingerprint: FP[2], state: 'usable' },
    ]);
    assert.notEqual(router.model('alpha/m1').blockedBy, 'quota_paused', 'other keys still take the model');

    // The paused key is left alone until its pause is over; the model's breaker took no damage.
    const next = await router.chat();
    assert.equal(next.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(upstream.callsTo('alpha/m1').at(-1)?.headers.authorization, `Bearer ${KEYS[1]}`);
    assert.equal(router.model('alpha/m1').state, 'CLOSED');
    router.clock.advance(61_000);
    const back = await router.chat();
    assert.equal(back.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:429->alpha/m1:200|skips=0');
    assert.equal(
      upstream.callsTo('alpha/m1').at(-2)?.headers.authorization,
      `Bearer ${KEYS[0]}`,
      'the first key is tried again once its pause is over',
    );
  });
});

test('a 401 blocks only that key; with every key refused the chain moves to the next model', async () => {
  await withKeys(async (router, upstream) => {
    upstream.always('alpha/m1', perKey(status(401), status(403), json('third key')));
    upstream.always('beta/m2', json('beta'));
    const reply = await router.chat();
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'alpha/m1!served|alpha/m1:401->alpha/m1:403->alpha/m1:200|skips=0',
    );
    assert.deepEqual(await keyStates(router), [
      { fingerprint: FP[0], state: 'invalid' },
      { fingerprint: FP[1], state: 'invalid' },
      { fingerprint: FP[2], state: 'usable' },
    ]);
    const view = (
      JSON.parse((await router.api('GET', '/api/providers')).text) as ProvidersResponse
    ).providers.find((provider) => provider.id === 'alpha');
    assert.equal(view?.keyStatus, 'set', 'one good key keeps the provider working');

    upstream.always('alpha/m1', perKey(status(401), status(403), status(401)));
    const moved = await router.chat();
    assert.equal(moved.headers['x-fcm-v2-decision'], 'beta/m2!served|alpha/m1:401->beta/m2:200|skips=0');
    assert.equal(router.model('alpha/m1').blockedBy, 'auth_error');
    const after = await router.chat();
    assert.equal(after.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.equal(router.model('alpha/m1').state, 'CLOSED', 'a refused key is not the model’s health');
  });
});

test('key rotation stays within maxAttempts; keys never reach history, logs or state files', async () => {
  await withKeys(async (router, upstream) => {
    upstream.always('alpha/m1', status(429, { retryAfter: '60' }));
    upstream.always('beta/m2', status(429, { retryAfter: '60' }));
    const config = (await router.api('GET', '/api/config')).text;
    assert.ok(!config.includes('sk-alpha'), 'the config API masks every key');
    const reply = await router.chat();
    assert.equal(reply.status, 429);
    assert.equal(upstream.callsTo('alpha/m1').length, 3);
    assert.equal(upstream.callsTo('beta/m2').length, 1);
    assert.equal(router.model('alpha/m1').blockedBy, 'quota_paused');
    assert.ok(router.model('alpha/m1').quotaPausedUntil !== null);
    await router.stop();
    const written = await Promise.all(
      ['quotas.json', 'history.json'].map((name) => readFile(path.join(router.stateDir, name), 'utf8')),
    );
    for (const text of [...written, router.logText(), JSON.stringify(router.router.history(10))]) {
      assert.ok(!text.includes('sk-alpha'), 'no key in state, history or logs');
    }
    assert.ok(written[0]?.includes(FP[2] ?? '-'), 'pauses are kept per key fingerprint');
  });
});
