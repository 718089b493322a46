import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { callDaemon, findDaemon } from './cli-control.js';
import { runCli } from '../test-support/cli-process.js';
import { deadUrl } from '../test-support/fake-upstream.js';
import { startHarness } from '../test-support/router-harness.js';

test('findDaemon finds a router by daemon.json, else by its lock, and only at the pid recorded', async () => {
  const router = await startHarness({ config: { providers: {}, sets: { main: [] }, activeSet: 'main' } });
  try {
    const stateDir = router.stateDir;
    const file = path.join(stateDir, 'daemon.json');
    const recorded = JSON.parse(await readFile(file, 'utf8')) as { token: string };
    const found = await findDaemon(stateDir);
    assert.equal(found?.url, router.url);
    assert.equal(found?.pid, process.pid);
    assert.equal(found?.token, recorded.token);
    assert.equal(found?.demo, false);
    assert.equal(typeof found?.version, 'string');

    // Another pid in daemon.json: not this router, and the lock (with the real pid) names it instead.
    await writeFile(file, JSON.stringify({ ...recorded, pid: process.pid + 1 }));
    const byLock = await findDaemon(stateDir);
    assert.equal(byLock?.url, router.url);
    assert.equal(byLock?.pid, process.pid);
    assert.equal(byLock?.token, null, 'the lock holds no token');

    await rm(file);
    assert.equal((await findDaemon(stateDir))?.pid, process.pid, 'found by the lock alone');
  } finally {
    await router.close();
  }
});

test('a daemon found through its lock because daemon.json is damaged or gone: a management call says which and what to do', async () => {
  const router = await startHarness({ config: { providers: {}, sets: { main: [] }, activeSet: 'main' } });
  try {
    const file = path.join(router.stateDir, 'daemon.json');
    const recorded = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const pause = async (): Promise<string | null> => {
      const daemon = await findDaemon(router.stateDir);
      assert.equal(daemon?.pid, process.pid, 'found by the lock');
      return daemon && (await callDaemon(daemon, 'POST', '/api/pause', { paused: true })).message;
    };
    const restart = 'restart the daemon ("fcm-router stop", then start it again) to write it anew';

    await writeFile(file, 'junk\n');
    assert.equal(
      await pause(),
      `${file}, where the running daemon keeps its API token, is corrupt (not JSON): ${restart}`,
    );
    await writeFile(file, JSON.stringify({ ...recorded, port: 'x' }));
    assert.match(
      (await pause()) ?? '',
      /daemon\.json, where .* is corrupt \(port: Expected number, received string\): restart/,
    );
    await rm(file);
    assert.equal(
      await pause(),
      `${file}, where the running daemon keeps its API token, is missing: ${restart}`,
    );
    assert.equal(router.router.isPaused(), false, 'nothing was sent without the token');
  } finally {
    await router.close();
  }
});

test('status and stop with a live process holding the lock but not answering: they name it and do nothing', async () => {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'fcm-silent-'));
  try {
    // This test's own process: alive, holding the lock, and no router at the address the lock names.
    const url = await deadUrl();
    const lock = { pid: process.pid, startedAt: 1, port: Number(new URL(url).port), url, nonce: 'x' };
    await writeFile(path.join(stateDir, 'daemon.lock'), JSON.stringify(lock));
    for (const command of ['status', 'stop']) {
      const run = await runCli([command, '--state-dir', stateDir]);
      assert.equal(run.code, 1, `${command}: ${run.output}`);
      assert.match(run.output, new RegExp(`process ${process.pid} holds .* but does not answer at ${url}`));
      assert.doesNotMatch(run.output, /not running/);
    }
    await rm(path.join(stateDir, 'daemon.lock'));
    const gone = await runCli(['status', '--state-dir', stateDir]);
    assert.equal(gone.code, 3, gone.output);
    assert.match(gone.output, /not running/);
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
});
