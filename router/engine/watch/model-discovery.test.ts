import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscoveryResponse, ProvidersResponse } from '../../api-types.js';
import type { ConfigInput } from '../../config/schema.js';
import { startFakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { TestClock } from '../../test-support/test-clock.js';
import { json } from '../../test-support/upstream-behaviours.js';

const GONE = 'groq/llama-3.3-70b-versatile';
const KEPT = 'groq/llama-3.1-8b-instant';

test('discovery marks a catalogue model the provider no longer lists: skipped before an agent meets its 404, across a restart', async () => {
  const upstream = await startFakeUpstream();
  const clock = new TestClock();
  // The catalogue's Groq, pointed at the fake upstream.
  const config: ConfigInput = {
    providers: { groq: { baseUrl: upstream.baseUrl('groq'), apiKey: 'gsk-discovery' } },
    sets: { main: [GONE, KEPT] },
    activeSet: 'main',
  };
  upstream.always(GONE, json('gone')).always(KEPT, json('kept'));
  upstream.listModels('groq', ['llama-3.1-8b-instant', 'brand-new-model']);
  const first = await startHarness({ config, clock });
  let second: RouterHarness | null = null;
  try {
    assert.equal((await first.chat()).headers['x-fcm-v2-model'], GONE, 'before discovery it is tried');
    const reply = await first.api('POST', '/api/providers/discover', { provider: 'groq' });
    assert.equal(reply.status, 200, reply.text);
    const result = JSON.parse(reply.text) as DiscoveryResponse;
    assert.equal(result.listed, 2);
    assert.ok(result.vanished.includes(GONE));
    assert.ok(!result.vanished.includes(KEPT));
    assert.deepEqual(result.discovered, ['brand-new-model']);
    assert.deepEqual(upstream.listCalls, [{ provider: 'groq', authorization: 'Bearer gsk-discovery' }]);

    const after = await first.chat();
    assert.equal(after.headers['x-fcm-v2-decision'], `${KEPT}!served|${KEPT}:200|skips=1`);
    assert.deepEqual(first.lastEntry().skipped, [{ model: GONE, reason: 'model_vanished' }]);
    assert.equal(first.model(GONE).blockedBy, 'model_vanished');
    const providers = JSON.parse((await first.api('GET', '/api/providers')).text) as ProvidersResponse;
    const groq = providers.providers.find((provider) => provider.id === 'groq');
    assert.deepEqual(groq?.discoveredNew, ['brand-new-model']);
    assert.equal(groq?.models.find((model) => model.key === GONE)?.vanished, true);
    assert.ok(groq?.discoveredAt !== null);

    await first.stop();
    second = await startHarness({ config, clock, dir: first.dir });
    assert.equal(second.model(GONE).blockedBy, 'model_vanished', 'the list is kept across a restart');
    assert.equal(upstream.callsTo(GONE).length, 1);
  } finally {
    await (second ?? first).close();
    await upstream.close();
  }
});

test('a custom provider’s list offers its new models in Add a model', async () => {
  const upstream = await startFakeUpstream();
  upstream.listModels('myvllm', ['qwen3-coder-30b', 'qwen3-coder-480b']);
  const config: ConfigInput = {
    providers: { myvllm: { baseUrl: upstream.baseUrl('myvllm'), apiKey: 'x', models: ['qwen3-coder-30b'] } },
  };
  const router = await startHarness({ config });
  try {
    const reply = await router.api('POST', '/api/providers/discover', { provider: 'myvllm' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual((JSON.parse(reply.text) as DiscoveryResponse).discovered, ['qwen3-coder-480b']);
    const providers = JSON.parse((await router.api('GET', '/api/providers')).text) as ProvidersResponse;
    const mine = providers.providers.find((provider) => provider.id === 'myvllm');
    assert.deepEqual(mine?.discoveredNew, ['qwen3-coder-480b']);
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('discovery refuses an unknown provider and reports a provider without a list', async () => {
  const upstream = await startFakeUpstream();
  const router = await startHarness({
    config: { providers: { alpha: { baseUrl: upstream.baseUrl('alpha'), apiKey: 'k', models: ['m1'] } } },
  });
  try {
    assert.equal((await router.api('POST', '/api/providers/discover', { provider: 'nobody' })).status, 404);
    const failed = await router.api('POST', '/api/providers/discover', { provider: 'alpha' });
    assert.equal(failed.status, 502);
    assert.match(failed.text, /discovery_failed/);
    assert.match(failed.text, /HTTP 404/);
    assert.equal((await router.api('POST', '/api/providers/discover', { nope: 1 })).status, 400);
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('a list that says it has more pages marks nothing gone: one page cannot tell which models left', async () => {
  const upstream = await startFakeUpstream();
  const config: ConfigInput = {
    providers: { groq: { baseUrl: upstream.baseUrl('groq'), apiKey: 'gsk-discovery' } },
    sets: { main: [GONE, KEPT] },
    activeSet: 'main',
  };
  const router = await startHarness({ config });
  try {
    for (const more of [{ has_more: true }, { nextPageToken: 'page-2' }, { next_page_token: 'p2' }]) {
      upstream.listModels('groq', ['llama-3.1-8b-instant'], more);
      const reply = await router.api('POST', '/api/providers/discover', { provider: 'groq' });
      assert.equal(reply.status, 502, reply.text);
      assert.match(reply.text, /discovery_failed/);
      assert.match(reply.text, /more pages/);
      assert.equal(router.model(GONE).blockedBy, null, JSON.stringify(more));
    }
    // A first page with nothing more to come is the whole list.
    upstream.listModels('groq', ['llama-3.1-8b-instant'], { has_more: false, nextPageToken: '' });
    assert.equal((await router.api('POST', '/api/providers/discover', { provider: 'groq' })).status, 200);
    assert.equal(router.model(GONE).blockedBy, 'model_vanished');
  } finally {
    await router.close();
    await upstream.close();
  }
});

for (const [name, listed, gone] of [
  [
    "a list in Google's format (`models/<id>`) is read as the ids requests use",
    ['models/llama-3.1-8b-instant'],
    [GONE],
  ],
  ['a list that names none of the catalogue models is not used to skip any', ['other-a', 'other-b'], []],
] as const) {
  test(name, async () => {
    const upstream = await startFakeUpstream();
    const config: ConfigInput = {
      providers: { groq: { baseUrl: upstream.baseUrl('groq'), apiKey: 'gsk-discovery' } },
      sets: { main: [GONE, KEPT] },
      activeSet: 'main',
    };
    upstream.listModels('groq', [...listed]);
    const router = await startHarness({ config });
    try {
      const reply = await router.api('POST', '/api/providers/discover', { provider: 'groq' });
      assert.equal(reply.status, 200, reply.text);
      const result = JSON.parse(reply.text) as DiscoveryResponse;
      assert.ok(result.ok);
      if (gone.length === 0) assert.deepEqual(result.vanished, []);
      for (const key of gone) assert.ok(result.vanished.includes(key), key);
      assert.ok(!result.vanished.includes(KEPT));
      assert.equal(router.model(KEPT).blockedBy, null);
    } finally {
      await router.close();
      await upstream.close();
    }
  });
}
