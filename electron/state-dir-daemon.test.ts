import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readDaemonFile, startRouter, type DaemonFile } from '../router/index.js';
import type { HealthProbe } from './attach-or-own.js';
import { decideStateDirDaemon, findStateDirDaemon } from './state-dir-daemon.js';

const file: DaemonFile = {
  pid: 4242,
  port: 19280,
  host: '127.0.0.1',
  url: 'http://127.0.0.1:19280',
  version: '0.1.0',
  startedAt: 0,
  demo: false,
};

const health = (pid: number, version = '0.1.0'): HealthProbe => ({
  kind: 'answer',
  status: 200,
  body: { ok: true, name: 'fcm-router', version, uptimeMs: 5, pid },
});

const decide = (overrides: Partial<Parameters<typeof decideStateDirDaemon>[0]>) =>
  decideStateDirDaemon({
    file,
    alive: true,
    probe: health(4242),
    ownPid: 1,
    ownVersion: '0.1.5',
    ...overrides,
  });

test('a live compatible daemon answering with the pid of daemon.json is attached to', () => {
  assert.deepEqual(decide({}), { kind: 'attach', url: 'http://127.0.0.1:19280', pid: 4242, token: null });
  assert.deepEqual(decide({ file: { ...file, token: 'tok' } }), {
    kind: 'attach',
    url: 'http://127.0.0.1:19280',
    pid: 4242,
    token: 'tok',
  });
});

test('no file, a dead pid, our own pid, or no answer: nothing runs there', () => {
  assert.deepEqual(decide({ file: null }), { kind: 'none' });
  assert.deepEqual(decide({ alive: false }), { kind: 'none' });
  assert.deepEqual(decide({ ownPid: 4242 }), { kind: 'none' });
  assert.deepEqual(decide({ probe: { kind: 'refused' } }), { kind: 'none' });
  assert.deepEqual(decide({ probe: { kind: 'error', code: 'ETIMEDOUT' } }), { kind: 'none' });
  assert.deepEqual(decide({ probe: { kind: 'answer', status: 200, body: { hello: 1 } } }), { kind: 'none' });
});

test('an fcm-router on that URL with another pid is not the daemon of the file (pid reused, port reused)', () => {
  assert.deepEqual(decide({ probe: health(777) }), { kind: 'none' });
});

test('an incompatible daemon on the state dir is named, not attached to', () => {
  assert.deepEqual(decide({ probe: health(4242, '2.0.0') }), {
    kind: 'incompatible',
    reason: 'fcm-router 2.0.0 (pid 4242) already uses this state folder',
  });
});

test('finds a real router running on the state dir, and nothing once it stopped', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-state-dir-daemon-'));
  try {
    await writeFile(path.join(dir, 'config.json'), '{}');
    const router = await startRouter({ port: 0, stateDir: dir, env: {} });
    const found = await findStateDirDaemon({ stateDir: dir, ownPid: -1, ownVersion: router.version });
    const token = (await readDaemonFile(dir))?.token ?? null;
    assert.ok(token !== null && token.length > 20, 'daemon.json holds the token');
    assert.deepEqual(found, { kind: 'attach', url: router.url, pid: process.pid, token });
    await router.stop({ graceMs: 100 });
    assert.deepEqual(await findStateDirDaemon({ stateDir: dir, ownPid: -1, ownVersion: router.version }), {
      kind: 'none',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a stale daemon.json of a dead process is ignored without probing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-state-dir-daemon-'));
  try {
    await writeFile(path.join(dir, 'daemon.json'), JSON.stringify(file));
    const probed: string[] = [];
    const found = await findStateDirDaemon({
      stateDir: dir,
      ownPid: 1,
      ownVersion: '0.1.0',
      isAlive: () => false,
      probe: async (url) => (probed.push(url), { kind: 'refused' }),
    });
    assert.deepEqual(found, { kind: 'none' });
    assert.deepEqual(probed, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
