import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateConfig } from '../config/config-store.js';
import { resolveConfig } from '../config/resolve-config.js';
import { advertisedWindow } from '../engine/fit/set-windows.js';
import { DEMO_WINDOW, demoConfig } from './demo-config.js';
import { DEMO_PROVIDERS, startDemoUpstream } from './demo-upstream.js';

test('the demo config validates and resolves every set model to a demo provider', () => {
  const raw = demoConfig('http://127.0.0.1:40123/');
  const validated = validateConfig(raw);
  assert.ok(validated.ok, JSON.stringify(validated));
  const resolved = resolveConfig(validated.config, {});
  assert.equal(resolved.activeSet, 'demo');
  assert.deepEqual(Object.keys(resolved.sets), ['demo', 'reasoning']);
  assert.equal(validated.config.router.failover.requestTimeoutMs, 3000);
  for (const key of Object.values(resolved.sets).flat()) {
    const model = resolved.models.get(key);
    assert.ok(model, key);
    assert.ok(Object.hasOwn(DEMO_PROVIDERS[model.provider] ?? {}, model.modelId), key);
    const provider = resolved.providers.get(model.provider);
    assert.equal(provider?.baseUrl, `http://127.0.0.1:40123/${model.provider}/v1`);
    assert.equal(provider?.apiKey, 'demo-key');
    assert.equal(provider?.custom, true);
  }
});

test('the demo gives agents a window: fcm and each set advertise one', () => {
  const validated = validateConfig(demoConfig('http://127.0.0.1:1'));
  assert.ok(validated.ok);
  const resolved = resolveConfig(validated.config, {});
  for (const name of ['fcm', 'fcm:demo', 'fcm:reasoning'])
    assert.equal(
      advertisedWindow(resolved, name, () => undefined),
      DEMO_WINDOW,
      name,
    );
});

test('the demo set fails over visibly before a model that answers', () => {
  const demo = demoConfig('http://127.0.0.1:1').sets?.['demo'] ?? [];
  const firstAnswer = demo.indexOf('demo-fast/coder');
  assert.ok(firstAnswer >= 2, 'at least two failures come first');
  assert.ok(
    demo
      .slice(0, firstAnswer)
      .every((key) => key.startsWith('demo-flaky/') || key.startsWith('demo-limited/')),
  );
  assert.equal(new Set(demo).size, demo.length);
});

test('each demo provider base URL answers /models on a running demo upstream', async () => {
  const upstream = await startDemoUpstream();
  try {
    const providers = demoConfig(upstream.url).providers ?? {};
    for (const [id, provider] of Object.entries(providers)) {
      const res = await fetch(`${provider.baseUrl}/models`);
      assert.equal(res.status, 200, id);
      const ids = ((await res.json()) as { data: { id: string }[] }).data.map((model) => model.id);
      assert.deepEqual(ids, provider.models, id);
    }
  } finally {
    await upstream.close();
  }
});
