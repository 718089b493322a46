import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  decideAttachOrOwn,
  findNextFreePort,
  isCompatibleVersion,
  isPortFree,
  probeHealth,
} from './attach-or-own.js';

const health = { ok: true, name: 'fcm-router', version: '0.1.3', uptimeMs: 5000, pid: 4242 };

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const close = (server: net.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

test('decideAttachOrOwn: free port → own; compatible fcm-router → attach; anything else → port-taken', () => {
  assert.deepEqual(decideAttachOrOwn({ kind: 'refused' }, '0.1.0', null), { action: 'own' });
  assert.deepEqual(decideAttachOrOwn({ kind: 'answer', status: 200, body: health }, '0.1.0', 4242), {
    action: 'attach',
    version: '0.1.3',
    pid: 4242,
  });
  const other = decideAttachOrOwn({ kind: 'answer', status: 404, body: undefined }, '0.1.0', null);
  assert.equal(other.action, 'port-taken');
  const lookalike = decideAttachOrOwn(
    { kind: 'answer', status: 200, body: { ...health, name: 'other' } },
    '0.1.0',
    4242,
  );
  assert.equal(lookalike.action, 'port-taken');
  const silent = decideAttachOrOwn({ kind: 'error', code: 'ETIMEDOUT' }, '0.1.0', null);
  assert.deepEqual(silent, { action: 'port-taken', reason: 'no HTTP answer (ETIMEDOUT)' });
  const old = decideAttachOrOwn(
    { kind: 'answer', status: 200, body: { ...health, version: '0.2.0' } },
    '0.1.0',
    4242,
  );
  assert.equal(old.action, 'port-taken');
  assert.match(old.action === 'port-taken' ? old.reason : '', /incompatible/);
});

test("decideAttachOrOwn: an fcm-router the app's state folder does not name is never attached to", () => {
  const router = { kind: 'answer', status: 200, body: health } as const;
  for (const ours of [null, 4243]) {
    const decision = decideAttachOrOwn(router, '0.1.0', ours);
    assert.equal(decision.action, 'port-taken', String(ours));
    if (decision.action !== 'port-taken') return;
    assert.equal(decision.otherRouter, true);
    assert.match(decision.reason, /pid 4242.*another user's router/);
  }
});

test('isCompatibleVersion: same major, and same minor below 1.0', () => {
  assert.equal(isCompatibleVersion('1.4.2', '1.0.0'), true);
  assert.equal(isCompatibleVersion('2.0.0', '1.9.9'), false);
  assert.equal(isCompatibleVersion('0.1.9', '0.1.0'), true);
  assert.equal(isCompatibleVersion('0.2.0', '0.1.0'), false);
  assert.equal(isCompatibleVersion('v1.0.0-beta.1', '1.2.0'), true);
  assert.equal(isCompatibleVersion('latest', '1.2.0'), false);
});

test('probeHealth reads a real fcm-router /health answer', async () => {
  const server = http.createServer((req, res) => {
    assert.equal(req.url, '/health');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(health));
  });
  const port = await listen(server);
  try {
    const probe = await probeHealth(`http://127.0.0.1:${port}`);
    assert.deepEqual(probe, { kind: 'answer', status: 200, body: health });
    assert.equal(decideAttachOrOwn(probe, '0.1.0', 4242).action, 'attach');
  } finally {
    await close(server);
  }
});

test('probeHealth: another web server is port-taken, not attach', async () => {
  const server = http.createServer((_req, res) => {
    res.statusCode = 200;
    res.end('<html>hello</html>');
  });
  const port = await listen(server);
  try {
    const probe = await probeHealth(`http://127.0.0.1:${port}`);
    assert.equal(probe.kind, 'answer');
    assert.equal(decideAttachOrOwn(probe, '0.1.0', 4242).action, 'port-taken');
  } finally {
    await close(server);
  }
});

test('probeHealth: nothing listening is refused; a silent socket times out', async () => {
  const probeServer = net.createServer();
  const freePort = await listen(probeServer);
  await close(probeServer);
  assert.deepEqual(await probeHealth(`http://127.0.0.1:${freePort}`), { kind: 'refused' });

  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => sockets.push(socket));
  const port = await listen(silent);
  try {
    const probe = await probeHealth(`http://127.0.0.1:${port}`, 200);
    assert.deepEqual(probe, { kind: 'error', code: 'ETIMEDOUT' });
  } finally {
    for (const socket of sockets) socket.destroy();
    await close(silent);
  }
});

test('findNextFreePort skips a taken port', async () => {
  const first = net.createServer();
  const taken = await listen(first);
  // Occupy the port after it too, when we can, so the search has to skip one.
  const second = net.createServer();
  const secondTaken = await new Promise<boolean>((resolve) => {
    second.once('error', () => resolve(false));
    second.listen(taken + 1, '127.0.0.1', () => resolve(true));
  });
  try {
    assert.equal(await isPortFree('127.0.0.1', taken), false);
    const next = await findNextFreePort('127.0.0.1', taken);
    assert.ok(next !== null && next > taken);
    if (secondTaken) assert.ok(next > taken + 1);
    assert.equal(await isPortFree('127.0.0.1', next), true);
  } finally {
    await close(first);
    if (secondTaken) await close(second);
  }
});
