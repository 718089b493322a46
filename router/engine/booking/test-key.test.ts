import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyFingerprint } from '../../state/key-fingerprint.js';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig } from '../../test-support/scenario.js';
import { json, status } from '../../test-support/upstream-behaviours.js';

const KEYS = ['sk-alpha-good', 'sk-alpha-wrong'];
const FP = KEYS.map(keyFingerprint);
const PINNED = { model: 'fcm:@alpha/m1' };

/** The headers of a dashboard test of the key with `fingerprint`. */
const testOf = (fingerprint: string) => ({
  headers: { 'x-fcm-source': 'test', 'x-fcm-key-fingerprint': fingerprint },
});

/** alpha with two keys (the first good, the second refused by the upstream) and one model. */
async function withTwoKeys(
  run: (router: RouterHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    const config = scenarioConfig(upstream, { providers: { alpha: ['m1'] } });
    const alpha = config.providers?.['alpha'];
    assert.ok(alpha);
    config.providers = { alpha: { ...alpha, apiKey: KEYS[0], apiKeys: KEYS.slice(1) } };
    router = await startHarness({ config });
    upstream.always('alpha/m1', (res, call) =>
      (call.headers.authorization === `Bearer ${KEYS[0]}` ? json('ok') : status(401))(res, call),
    );
    await run(router, upstream);
  } finally {
    await router?.close();
    await upstream.close();
  }
}

test('a test naming a key by its fingerprint goes with that key only, also when it is refused', async () => {
  await withTwoKeys(async (router, upstream) => {
    const wrong = await router.chat(PINNED, testOf(FP[1] ?? ''));
    assert.equal(wrong.status, 401);
    assert.deepEqual(
      upstream.callsTo('alpha/m1').map((call) => call.headers.authorization),
      [`Bearer ${KEYS[1]}`],
      'the first key is not tried after the named one is refused',
    );
    assert.deepEqual(
      router.lastEntry().attempts.map((attempt) => attempt.key),
      [FP[1]],
    );

    // The refused key stays the one tested: a test is how a refused key is checked again.
    await router.chat(PINNED, testOf(FP[1] ?? ''));
    assert.equal(upstream.callsTo('alpha/m1').at(-1)?.headers.authorization, `Bearer ${KEYS[1]}`);

    const good = await router.chat(PINNED, testOf(FP[0] ?? ''));
    assert.equal(good.status, 200);
    assert.equal(upstream.callsTo('alpha/m1').at(-1)?.headers.authorization, `Bearer ${KEYS[0]}`);
  });
});

test('only a test may name a key; a fingerprint the provider has no key for is no key at all', async () => {
  await withTwoKeys(async (router, upstream) => {
    const agent = await router.chat(PINNED, { headers: { 'x-fcm-key-fingerprint': FP[1] ?? '' } });
    assert.equal(agent.status, 200);
    assert.equal(upstream.callsTo('alpha/m1').at(-1)?.headers.authorization, `Bearer ${KEYS[0]}`);

    const calls = upstream.callsTo('alpha/m1').length;
    const unknown = await router.chat(PINNED, testOf(keyFingerprint('sk-not-configured')));
    assert.notEqual(unknown.status, 200);
    assert.equal(upstream.callsTo('alpha/m1').length, calls, 'no other key went instead');
    assert.deepEqual(router.lastEntry().skipped, [{ model: 'alpha/m1', reason: 'missing_key' }]);
  });
});
