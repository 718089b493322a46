import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startConnectProxy } from '../test-support/connect-proxy.js';
import { deferred, within } from '../test-support/deferred.js';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { startHarness } from '../test-support/router-harness.js';
import { startSocksProxy } from '../test-support/socks-proxy.js';
import { after, json } from '../test-support/upstream-behaviours.js';
import { ProxyEnvError, readOutboundProxy } from './outbound-proxy.js';
import { UpstreamClient } from './upstream-client.js';

/** A call to `far/m1` at a host only the test proxies can reach (`far.invalid` resolves nowhere). */
function farCall(upstream: FakeUpstream, scheme = 'http:') {
  const url = new URL(`${upstream.baseUrl('far')}/chat/completions`);
  url.hostname = 'far.invalid';
  url.protocol = scheme;
  return { providerId: 'far', url: url.href, headers: {}, body: JSON.stringify({ model: 'm1' }) };
}

/** Sends one call on `client`: the status it got, or the error's code. */
function send(client: UpstreamClient, call: ReturnType<typeof farCall>): Promise<number | string> {
  const done = deferred<number | string>();
  let status = 0;
  client.open(call, {
    onHead: (head) => {
      status = head.status;
      return { type: 'whole', limit: 1_000_000 };
    },
    onChunk: () => undefined,
    onWhole: () => done.resolve(status),
    onSnippet: () => done.resolve(status),
    onStreamEnd: () => done.resolve(status),
    onError: (error) => done.resolve(String((error as { code?: unknown }).code ?? error.message)),
  });
  return within(done.promise, 'the call to far.invalid');
}

const through = (url: string) => readOutboundProxy({ HTTP_PROXY: url });

test('a client told a new proxy sends later calls through it, and directly again when told none', async () => {
  const upstream = await startFakeUpstream();
  const connect = await startConnectProxy();
  const socks = await startSocksProxy();
  upstream.always('far/m1', json('far'));
  const client = new UpstreamClient(null);
  const far = farCall(upstream);
  const authority = `far.invalid:${new URL(upstream.url).port}`;
  try {
    assert.equal(typeof (await send(client, far)), 'string', 'directly, far.invalid is out of reach');

    assert.equal(client.setProxy(through(connect.url)), true);
    assert.equal(await send(client, far), 200);
    assert.deepEqual(connect.tunnels, [authority]);
    assert.equal(client.setProxy(through(connect.url)), false, 'the same proxy changes nothing');

    assert.equal(client.setProxy(through(socks.url)), true);
    assert.equal(await send(client, far), 200);
    assert.deepEqual(socks.connections, [authority]);
    assert.deepEqual(connect.tunnels, [authority], 'the old proxy is no longer used');

    assert.equal(client.setProxy(null), true);
    assert.equal(typeof (await send(client, far)), 'string', 'directly again');
    assert.equal(upstream.callsTo('far/m1').length, 2);
  } finally {
    await client.close();
    await socks.close();
    await connect.close();
    await upstream.close();
  }
});

test('a call under way when the proxy changes finishes through the old one', async () => {
  const upstream = await startFakeUpstream();
  const proxy = await startConnectProxy();
  const gate = deferred<void>();
  upstream.script('far/m1', after(gate.promise, json('held')));
  const client = new UpstreamClient(through(proxy.url));
  try {
    const held = send(client, farCall(upstream));
    await upstream.nextCall('far/m1');
    assert.equal(client.setProxy(null), true);
    gate.resolve();
    assert.equal(await held, 200);
  } finally {
    await client.close();
    await proxy.close();
    await upstream.close();
  }
});

test('the router told the system’s proxy sends https:// providers through it, logs it without credentials, and goes directly when told none', async () => {
  const upstream = await startFakeUpstream();
  const proxy = await startConnectProxy();
  // An https:// provider at a host only the proxy reaches: a tunnel to it shows the way the call went.
  const far = new URL(upstream.baseUrl('far'));
  far.hostname = 'far.invalid';
  far.protocol = 'https:';
  const router = await startHarness({
    config: {
      providers: { far: { baseUrl: far.href, apiKey: 'k-far', models: ['m1'] } },
      sets: { main: ['far/m1'] },
      activeSet: 'main',
    },
  });
  const discover = () => router.api('POST', '/api/providers/discover', { provider: 'far' });
  const withCredentials = proxy.url.replace('//', '//me:s3cret@');
  try {
    await discover();
    assert.deepEqual(proxy.tunnels, [], 'started direct');

    router.router.setSystemProxy(withCredentials);
    await discover();
    assert.deepEqual(proxy.tunnels, [far.host]);
    const changed = router.logText().match(/the system's proxy changed: .*/g) ?? [];
    assert.equal(changed.length, 1);
    assert.match(
      changed[0] ?? '',
      /calls to https:\/\/ providers go through the proxy http:\/\/127\.0\.0\.1:\d+, http:\/\/ ones directly; not for localhost/,
    );
    assert.ok(!router.logText().includes('s3cret'));

    router.router.setSystemProxy(withCredentials);
    assert.equal(router.logText().match(/the system's proxy changed/g)?.length, 1, 'no change, no line');

    router.router.setSystemProxy(null);
    await discover();
    assert.deepEqual(proxy.tunnels, [far.host], 'directly again');
    assert.match(router.logText(), /the system's proxy changed: calls to providers go directly/);
  } finally {
    await router.close();
    await proxy.close();
    await upstream.close();
  }
});

test('a system proxy that is not a proxy URL is refused, named, not echoed; the way calls go stays', async () => {
  const router = await startHarness({ config: { providers: {} } });
  try {
    for (const bad of ['ftp://me:s3cret@proxy:21', 'http://me:s3cret@:80', '::::']) {
      assert.throws(
        () => router.router.setSystemProxy(bad),
        (error: unknown) =>
          error instanceof ProxyEnvError &&
          error.message.startsWith('the system proxy is not a proxy URL') &&
          !error.message.includes('s3cret'),
        bad,
      );
    }
    assert.doesNotMatch(router.logText(), /the system's proxy changed/);
  } finally {
    await router.close();
  }
});
