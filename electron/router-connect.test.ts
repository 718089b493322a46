import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DaemonRunningError } from '../router/index.js';
import { connectRouter, desktopPort } from './router-connect.js';
import type { RouterSource } from './router-source.js';
import { startFakeRouter } from './testing/fake-router-server.js';
import { fakeSource } from './testing/fake-source.js';
import { snapshot } from './testing/fixtures.js';

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const owned = (): RouterSource => fakeSource(snapshot([]));

test('a free port: the app runs its own router there', async () => {
  const port = await freePort();
  const started: number[] = [];
  const result = await connectRouter({
    host: '127.0.0.1',
    port,
    ownVersion: '0.1.0',
    startOwned: async (p) => (started.push(p), owned()),
  });
  assert.equal(result.kind, 'connected');
  assert.deepEqual(started, [port]);
});

test("the compatible fcm-router the app's state folder names on the port: attach to it, start nothing", async () => {
  const fake = await startFakeRouter(snapshot([]));
  try {
    const port = Number(new URL(fake.url).port);
    const result = await connectRouter({
      host: '127.0.0.1',
      port,
      ownVersion: '0.1.4',
      // The fake answers /health with pid 1.
      ownDaemonPid: async () => 1,
      startOwned: async () => assert.fail('must not start a router'),
    });
    assert.equal(result.kind, 'connected');
    assert.equal(result.kind === 'connected' && result.source.mode, 'attached');
    assert.equal(result.kind === 'connected' && result.source.url, fake.url);
  } finally {
    await fake.close();
  }
});

test('another program on the port: port-taken with the next free port', async () => {
  const other = http.createServer((_req, res) => res.end('nginx'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const { port } = other.address() as AddressInfo;
  try {
    const result = await connectRouter({
      host: '127.0.0.1',
      port,
      ownVersion: '0.1.0',
      startOwned: async () => assert.fail('must not start a router'),
    });
    assert.equal(result.kind, 'port-taken');
    if (result.kind !== 'port-taken') return;
    assert.equal(result.port, port);
    assert.ok(result.nextFreePort !== null && result.nextFreePort > port);
    assert.match(result.reason, /another program/);
  } finally {
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
});

test('a port grabbed between probe and listen is looked at again', async () => {
  let tries = 0;
  const result = await connectRouter({
    host: '127.0.0.1',
    port: 19999,
    ownVersion: '0.1.0',
    probe: async () => (tries++ === 0 ? { kind: 'refused' } : { kind: 'answer', status: 200, body: 'x' }),
    startOwned: async () => {
      throw Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    },
    findFreePort: async () => 20000,
  });
  assert.deepEqual(
    { ...result, reason: undefined },
    { kind: 'port-taken', port: 19999, nextFreePort: 20000, reason: undefined },
  );
});

test('port 0 skips the probe; other start errors propagate', async () => {
  const result = await connectRouter({
    host: '127.0.0.1',
    port: 0,
    ownVersion: '0.1.0',
    probe: async () => assert.fail('nothing to probe'),
    startOwned: async () => owned(),
  });
  assert.equal(result.kind, 'connected');
  await assert.rejects(
    connectRouter({
      host: '127.0.0.1',
      port: 0,
      ownVersion: '0.1.0',
      startOwned: async () => {
        throw new Error('config broken');
      },
    }),
    /config broken/,
  );
});

test('a daemon running on the state dir is attached to before any port is looked at, even port 0', async () => {
  const fake = await startFakeRouter(snapshot([]));
  try {
    const result = await connectRouter({
      host: '127.0.0.1',
      port: 0,
      ownVersion: '0.1.0',
      findExisting: async () => ({ kind: 'attach', url: fake.url, pid: 1, token: 'tok-of-daemon-json' }),
      probe: async () => assert.fail('no port probe'),
      startOwned: async () => assert.fail('must not start a second router on the state dir'),
    });
    assert.equal(result.kind === 'connected' && result.source.mode, 'attached');
    assert.equal(result.kind === 'connected' && result.source.url, fake.url);
    // The token of daemon.json signs the calls and the dashboard page (a daemon with --allow-remote wants it).
    assert.equal(
      result.kind === 'connected' && result.source.pageUrl,
      `${fake.url}/#token=tok-of-daemon-json`,
    );
    if (result.kind === 'connected') await result.source.close();
  } finally {
    await fake.close();
  }
});

test('an incompatible daemon on the state dir: no router of our own, the reason named', async () => {
  const result = await connectRouter({
    host: '127.0.0.1',
    port: 0,
    ownVersion: '0.1.0',
    findExisting: async () => ({
      kind: 'incompatible',
      reason: 'fcm-router 2.0.0 (pid 9) already uses this state folder',
    }),
    startOwned: async () => assert.fail('must not start a second router on the state dir'),
  });
  assert.deepEqual(result, {
    kind: 'state-dir-taken',
    reason: 'fcm-router 2.0.0 (pid 9) already uses this state folder',
  });
});

test('nothing on the state dir: the port decides as before', async () => {
  const started: number[] = [];
  const result = await connectRouter({
    host: '127.0.0.1',
    port: 0,
    ownVersion: '0.1.0',
    findExisting: async () => ({ kind: 'none' }),
    startOwned: async (p) => (started.push(p), owned()),
  });
  assert.equal(result.kind, 'connected');
  assert.deepEqual(started, [0]);
});

test('desktopPort: the tray choice, then FCM_ROUTER_PORT, then the default', () => {
  assert.equal(desktopPort(19281, { FCM_ROUTER_PORT: '20000' }), 19281);
  assert.equal(desktopPort(null, { FCM_ROUTER_PORT: '20000' }), 20000);
  assert.equal(desktopPort(null, { FCM_ROUTER_PORT: ' 0 ' }), 0);
  assert.equal(desktopPort(null, { FCM_ROUTER_PORT: ' ' }), 19280);
  assert.equal(desktopPort(null, {}), 19280);
});

test('desktopPort: an FCM_ROUTER_PORT that is no port is refused, naming it, not replaced by the default', () => {
  for (const value of ['abc', '70000', '-1', '1e3']) {
    assert.throws(() => desktopPort(null, { FCM_ROUTER_PORT: value }), {
      message: `FCM_ROUTER_PORT must be a port number (0-65535), got ${JSON.stringify(value)}`,
    });
  }
  // The tray's choice after a clash is the app's own: the variable is not read then.
  assert.equal(desktopPort(19281, { FCM_ROUTER_PORT: 'abc' }), 19281);
});

test('a daemon already owns the state folder on another port: attach to it there', async () => {
  const fake = await startFakeRouter(snapshot([]));
  try {
    const port = await freePort();
    const result = await connectRouter({
      host: '127.0.0.1',
      port,
      ownVersion: '0.1.0',
      startOwned: async () => {
        throw new DaemonRunningError('/state', { pid: 1, startedAt: 1, port: 0, url: fake.url });
      },
    });
    assert.equal(result.kind, 'connected');
    assert.equal(result.kind === 'connected' && result.source.mode, 'attached');
    assert.equal(result.kind === 'connected' && result.source.url, fake.url);
  } finally {
    await fake.close();
  }
});

test('a daemon owns the state folder but does not answer (still starting): the error is passed on', async () => {
  const port = await freePort();
  const refusal = new DaemonRunningError('/state', { pid: 4321, startedAt: 1, port: null, url: null });
  await assert.rejects(
    connectRouter({
      host: '127.0.0.1',
      port,
      ownVersion: '0.1.0',
      startOwned: async () => {
        throw refusal;
      },
    }),
    (error: unknown) => error === refusal,
  );
});
