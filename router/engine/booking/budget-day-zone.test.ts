import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigInput } from '../../config/schema.js';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig } from '../../test-support/scenario.js';
import { json } from '../../test-support/upstream-behaviours.js';

/** googleai (whose day the catalogue starts at Pacific midnight) and beta (a UTC day), each at 2 requests a day. */
function dayConfig(upstream: FakeUpstream): ConfigInput {
  const config = scenarioConfig(upstream, { providers: { googleai: ['g1'], beta: ['m2'] } });
  const providers = config.providers ?? {};
  for (const id of ['googleai', 'beta']) {
    const provider = providers[id];
    assert.ok(provider);
    providers[id] = { ...provider, limits: { rpm: null, tpm: null, rpd: 2 } };
  }
  return config;
}

test('a Pacific day: two requests at 23:30 UTC, a third at 00:30 UTC still skipped until Pacific midnight; a UTC day resets at 00:00', async () => {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    router = await startHarness({ config: dayConfig(upstream) });
    upstream.always('googleai/g1', json('google')).always('beta/m2', json('beta'));
    const clock = router.clock;
    const at = (time: number): void => clock.advance(time - clock.now());
    const served = async (): Promise<string | undefined> =>
      (await router?.chat())?.headers['x-fcm-v2-model'] as string | undefined;

    at(Date.UTC(2030, 0, 15, 23, 30));
    assert.equal(await served(), 'googleai/g1');
    assert.equal(await served(), 'googleai/g1');
    assert.equal(await served(), 'beta/m2', 'googleai at its 2 a day');
    assert.equal(await served(), 'beta/m2');

    // 00:30 UTC is 16:30 the day before in California: Google's day is not over, UTC's is.
    at(Date.UTC(2030, 0, 16, 0, 30));
    const next = await router.chat();
    assert.equal(next.headers['x-fcm-v2-decision'], 'beta/m2!served|beta/m2:200|skips=1');
    assert.deepEqual(router.lastEntry().skipped, [{ model: 'googleai/g1', reason: 'quota_budget' }]);
    assert.equal(router.model('googleai/g1').blockedBy, 'quota_budget');
    assert.equal(router.model('googleai/g1').quotaPausedUntil, Date.UTC(2030, 0, 16, 8), 'Pacific midnight');
    assert.equal(upstream.callsTo('googleai/g1').length, 2, 'the provider never saw a third request');

    at(Date.UTC(2030, 0, 16, 8));
    assert.equal(await served(), 'googleai/g1', 'a new day at Pacific midnight');
  } finally {
    await router?.close();
    await upstream.close();
  }
});
