import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigInput } from '../config/schema.js';
import { startConnectProxy } from '../test-support/connect-proxy.js';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { startSocksProxy } from '../test-support/socks-proxy.js';
import { startHarness } from '../test-support/router-harness.js';
import { json } from '../test-support/upstream-behaviours.js';

/** `far` answers only through the proxy (its host resolves nowhere); `near` is on loopback. */
function config(upstream: FakeUpstream): ConfigInput {
  const far = new URL(upstream.baseUrl('far'));
  far.hostname = 'far.invalid';
  return {
    providers: {
      far: { baseUrl: far.href, apiKey: 'k-far', models: ['m1'] },
      near: { baseUrl: upstream.baseUrl('near'), apiKey: 'k-near', models: ['m2'] },
    },
    sets: { main: ['far/m1', 'near/m2'] },
    activeSet: 'main',
  };
}

test('with HTTP_PROXY set, a provider’s requests and its model list go through the proxy; loopback directly', async () => {
  const upstream = await startFakeUpstream();
  const proxy = await startConnectProxy();
  upstream.always('far/m1', json('far')).always('near/m2', json('near'));
  upstream.listModels('far', ['m1']);
  const router = await startHarness({ config: config(upstream), env: { HTTP_PROXY: proxy.url } });
  try {
    const farAuthority = `far.invalid:${new URL(upstream.url).port}`;
    const reply = await router.chat({ model: 'fcm:@far/m1' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(proxy.tunnels, [farAuthority]);

    assert.equal((await router.chat({ model: 'fcm:@near/m2' })).status, 200);
    assert.deepEqual(proxy.tunnels, [farAuthority], 'loopback is reached directly');

    const listed = await router.api('POST', '/api/providers/discover', { provider: 'far' });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(upstream.listCalls, [{ provider: 'far', authorization: 'Bearer k-far' }]);
    assert.match(
      router.logText(),
      /calls to providers go through the proxy http:\/\/127\.0\.0\.1:\d+; not for localhost/,
    );
    assert.match(
      router.logText(),
      /NO_PROXY does not name 127\.0\.0\.1: an agent started with this environment/,
    );
  } finally {
    await router.close();
    await proxy.close();
    await upstream.close();
  }
});

test('a proxy’s credentials are sent to it and never logged; a proxy that refuses is proxy_refused, not the model’s fault', async () => {
  const upstream = await startFakeUpstream();
  const proxy = await startConnectProxy({ credentials: 'me:s3cret' });
  upstream.always('far/m1', json('far'));
  const port = new URL(proxy.url).port;
  const right = await startHarness({
    config: config(upstream),
    env: { HTTPS_PROXY: '', HTTP_PROXY: `http://me:s3cret@127.0.0.1:${port}` },
  });
  const wrong = await startHarness({
    config: config(upstream),
    env: { HTTP_PROXY: `http://me:guess@127.0.0.1:${port}` },
  });
  try {
    assert.equal((await right.chat({ model: 'fcm:@far/m1' })).status, 200);
    assert.equal(proxy.tunnels.length, 1);
    assert.ok(!right.logText().includes('s3cret'));

    const refused = await wrong.chat({ model: 'fcm:@far/m1' });
    assert.equal(refused.status, 502);
    assert.match(refused.text, /the proxy refused the calls; check its address and credentials/);
    assert.equal(wrong.lastEntry().attempts[0]?.kind, 'proxy_refused');
    const far = wrong.model('far/m1');
    assert.equal(far.state, 'CLOSED');
    assert.equal(far.consecutiveFailures, 0, 'the proxy’s refusal does not count against the model');
    assert.equal(proxy.refused, 1);
    assert.equal(proxy.tunnels.length, 1, 'no tunnel without the credentials');
    assert.ok(!wrong.logText().includes('guess'));
  } finally {
    await right.close();
    await wrong.close();
    await proxy.close();
    await upstream.close();
  }
});

for (const [name, env] of [
  ['HTTPS_PROXY and HTTP_PROXY', (url: string) => ({ HTTPS_PROXY: url, HTTP_PROXY: url })],
  ['ALL_PROXY alone', (url: string) => ({ ALL_PROXY: url })],
] as const) {
  test(`a socks5:// proxy carries the calls too (${name})`, async () => {
    const upstream = await startFakeUpstream();
    const proxy = await startSocksProxy();
    upstream.always('far/m1', json('far'));
    const router = await startHarness({ config: config(upstream), env: env(proxy.url) });
    try {
      const reply = await router.chat({ model: 'fcm:@far/m1' });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(proxy.connections, [`far.invalid:${new URL(upstream.url).port}`]);
    } finally {
      await router.close();
      await proxy.close();
      await upstream.close();
    }
  });
}

test('a SOCKS5 proxy that refuses every method is proxy_refused too', async () => {
  const upstream = await startFakeUpstream();
  const proxy = await startSocksProxy({ refuse: true });
  upstream.always('far/m1', json('far'));
  const router = await startHarness({ config: config(upstream), env: { HTTP_PROXY: proxy.url } });
  try {
    const reply = await router.chat({ model: 'fcm:@far/m1' });
    assert.equal(reply.status, 502);
    assert.equal(router.lastEntry().attempts[0]?.kind, 'proxy_refused');
    assert.equal(router.model('far/m1').consecutiveFailures, 0);
    assert.deepEqual(proxy.connections, []);
  } finally {
    await router.close();
    await proxy.close();
    await upstream.close();
  }
});
