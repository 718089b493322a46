import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeUpstream, type FakeUpstream } from '../../test-support/fake-upstream.js';
import { json, status } from '../../test-support/upstream-behaviours.js';
import { startHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, type ScenarioOptions } from '../../test-support/scenario.js';
import { TestClock } from '../../test-support/test-clock.js';

const OPTIONS: ScenarioOptions = {
  providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] },
  breaker: { failureThreshold: 1 },
};

/** A fake upstream and a state dir that outlive one router, so a test can restart on the same state. */
async function withRestartable(run: (upstream: FakeUpstream, dir: string) => Promise<void>): Promise<void> {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-it-'));
  try {
    await run(upstream, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await upstream.close();
  }
}

test('a restart on the same state dir keeps OPEN breakers, quota pauses and history; files are 0600', async () => {
  await withRestartable(async (upstream, dir) => {
    const clock = new TestClock();
    const config = scenarioConfig(upstream, OPTIONS);
    const first = await startHarness({ config, dir, clock });
    upstream.script('alpha/m1', status(500)).script('beta/m2', status(429, { retryAfter: '600' }));
    upstream.always('gamma/m3', json('g'));
    await first.chat({}, { headers: { 'user-agent': 'agent/1.0' } });
    const before = first.router.state();
    const requestId = first.lastEntry().requestId;
    await first.stop();

    const files = await readdir(path.join(dir, 'state'));
    for (const name of ['breakers.json', 'quotas.json', 'history.json']) {
      assert.ok(files.includes(name), name);
      assert.equal((await stat(path.join(dir, 'state', name))).mode & 0o777, 0o600, name);
    }

    clock.advance(5000);
    const second = await startHarness({ config, dir, clock });
    try {
      const alpha = second.model('alpha/m1');
      assert.equal(alpha.state, 'OPEN');
      assert.equal(alpha.openUntil, before.models.find((model) => model.key === 'alpha/m1')?.openUntil);
      assert.equal(alpha.tripCount, 1);
      const beta = second.model('beta/m2');
      assert.equal(
        beta.quotaPausedUntil,
        before.models.find((model) => model.key === 'beta/m2')?.quotaPausedUntil,
      );
      const entry = second.lastEntry();
      assert.equal(entry.requestId, requestId);
      assert.equal(entry.client, 'agent/1.0');

      const reply = await second.chat();
      assert.equal(reply.headers['x-fcm-v2-decision'], 'gamma/m3!served|gamma/m3:200|skips=2');
      assert.equal(upstream.callsTo('alpha/m1').length, 1);
      assert.equal(upstream.callsTo('beta/m2').length, 1);
    } finally {
      await second.stop();
    }
  });
});

test('a breaker whose cooldown passed while the router was down comes back needing a trial', async () => {
  await withRestartable(async (upstream, dir) => {
    const clock = new TestClock();
    const config = scenarioConfig(upstream, OPTIONS);
    const first = await startHarness({ config, dir, clock });
    upstream.script('alpha/m1', status(500)).always('beta/m2', json('b'));
    await first.chat();
    clock.advance(30_000);
    assert.equal(first.model('alpha/m1').state, 'OPEN');
    await first.stop();
    clock.advance(30_001);
    const second = await startHarness({ config, dir, clock });
    try {
      assert.equal(second.model('alpha/m1').state, 'HALF_OPEN');
      upstream.script('alpha/m1', json('back'));
      const reply = await second.chat();
      assert.equal(reply.headers['x-fcm-v2-model'], 'alpha/m1');
      assert.equal(second.lastEntry().attempts[0]?.role, 'trial');
      assert.equal(second.model('alpha/m1').state, 'CLOSED');
    } finally {
      await second.stop();
    }
  });
});

test('a corrupt breakers file is moved aside and the router starts', async () => {
  await withRestartable(async (upstream, dir) => {
    await mkdir(path.join(dir, 'state'), { recursive: true });
    await writeFile(path.join(dir, 'state', 'breakers.json'), '{"version": 1, "breakers": {"alpha/m1": ');
    const router = await startHarness({ config: scenarioConfig(upstream, OPTIONS), dir });
    try {
      upstream.always('alpha/m1', json('a'));
      assert.equal((await router.chat()).status, 200);
      const files = await readdir(path.join(dir, 'state'));
      assert.ok(
        files.some((name) => name.startsWith('breakers.json.corrupt-')),
        `moved aside: ${files.join(', ')}`,
      );
      assert.ok(router.logs.some((entry) => entry.level === 'warn' && entry.line.includes('breakers.json')));
      assert.equal(router.model('alpha/m1').state, 'CLOSED');
    } finally {
      await router.stop();
    }
  });
});
