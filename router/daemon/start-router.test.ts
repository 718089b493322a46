import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DaemonRunningError } from './daemon-lock.js';
import { probeLockHolder } from './lock-holder.js';
import { startRouter } from './start-router.js';
import { deferred, ioTurns } from '../test-support/deferred.js';
import { startFakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest } from '../test-support/http-client.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { after, json } from '../test-support/upstream-behaviours.js';

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-start-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a second router on the same state folder is refused, and the first goes on; stop frees the folder', async () => {
  await withDir(async (dir) => {
    const first = await startRouter({ port: 0, stateDir: dir, env: {} });
    try {
      await assert.rejects(
        startRouter({ port: 0, stateDir: dir, env: {} }),
        (error: unknown) => error instanceof DaemonRunningError && error.holder.url === first.url,
      );
      assert.equal((await fetch(`${first.url}/health`)).status, 200);
    } finally {
      await first.stop();
    }
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.startsWith('daemon.')),
      [],
      'lock and daemon file gone',
    );
    const again = await startRouter({ port: 0, stateDir: dir, env: {} });
    await again.stop();
  });
});

test('a router that fails to start (invalid config) leaves the folder free', async () => {
  await withDir(async (dir) => {
    const configPath = path.join(dir, 'bad.json');
    await writeFile(configPath, '{"bogus": true}');
    await assert.rejects(startRouter({ port: 0, stateDir: dir, configPath, env: {} }), /invalid config/);
    const router = await startRouter({ port: 0, stateDir: dir, env: {} });
    await router.stop();
  });
});

test('demo mode takes no config file: the file is neither read nor written, and the folder stays free', async () => {
  await withDir(async (dir) => {
    const configPath = path.join(dir, 'mine.json');
    const mine = '{ "providers": { "groq": { "apiKey": "gsk_mine" } } }\n';
    await writeFile(configPath, mine);
    const outcome = await startRouter({
      port: 0,
      stateDir: dir,
      configPath,
      demo: true,
      demoTraffic: false,
      env: {},
    }).then(
      async (router) => {
        await router.stop();
        return 'started';
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    assert.match(
      outcome,
      /demo mode keeps its own config in .*demo\/config\.json: it does not take configPath/,
    );
    assert.equal(await readFile(configPath, 'utf8'), mine);
    assert.deepEqual(await readdir(dir), ['mine.json'], 'no lock, no demo folder');
  });
});

test('shutdown is quiet about a file it cannot remove', async () => {
  await withDir(async (dir) => {
    const router = await startRouter({ port: 0, stateDir: dir, env: {} });
    // Root ignores file modes: a non-empty folder where daemon.json was cannot be removed by a file removal.
    await rm(path.join(dir, 'daemon.json'));
    await mkdir(path.join(dir, 'daemon.json', 'inside'), { recursive: true });
    await router.stop();
  });
});

test('an FCM_ROUTER_PORT that is no port is refused before the state folder is looked at', async () => {
  await withDir(async (dir) => {
    // A folder that cannot be made: only a refusal that comes first names the variable.
    await writeFile(path.join(dir, 'blocker'), 'x');
    await assert.rejects(
      startRouter({ stateDir: path.join(dir, 'blocker', 'state'), env: { FCM_ROUTER_PORT: '19280x' } }),
      /^Error: FCM_ROUTER_PORT must be a port number \(0-65535\), got "19280x"$/,
    );
  });
});

test('while a router stops (no longer listening, state not yet saved) a newcomer is refused, then starts once it is done', async () => {
  await withDir(async (dir) => {
    const upstream = await startFakeUpstream();
    const configPath = path.join(dir, 'config.json');
    await writeFile(configPath, JSON.stringify(scenarioConfig(upstream, { providers: { alpha: ['m1'] } })));
    const held = deferred();
    upstream.script('alpha/m1', after(held.promise, json('slow')));
    const first = await startRouter({ port: 0, stateDir: dir, configPath, env: {} });
    try {
      const inFlight = httpRequest(`${first.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await upstream.nextCall('alpha/m1', 1);
      const stopped = first.stop();
      // The in-flight request holds the stop once the server has closed: then nothing answers at its URL.
      for (let turn = 0; (await probeLockHolder({ pid: process.pid, url: first.url })) !== 'gone'; turn++) {
        assert.ok(turn < 1000, 'the server closes');
        await ioTurns();
      }
      await assert.rejects(
        startRouter({ port: 0, stateDir: dir, configPath, env: {} }),
        (error: unknown) => error instanceof DaemonRunningError && error.state === 'stopping',
      );
      held.resolve();
      assert.equal((await inFlight).status, 200);
      await stopped;
      const next = await startRouter({ port: 0, stateDir: dir, configPath, env: {} });
      await next.stop();
    } finally {
      held.resolve();
      await first.stop();
      await upstream.close();
    }
  });
});
