import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConfigInput } from '../../config/schema.js';
import { deferred } from '../../test-support/deferred.js';
import { startFakeUpstream } from '../../test-support/fake-upstream.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { recordingLogger } from '../../test-support/state-test-helpers.js';
import { TestClock } from '../../test-support/test-clock.js';
import { json } from '../../test-support/upstream-behaviours.js';
import { DISCOVERY_EVERY_MS, DiscoverySchedule, dueDiscoveries } from './discovery-schedule.js';
import type { DiscoveryResult } from './model-discovery.js';

const HOUR = 3_600_000;
const GONE = 'groq/llama-3.3-70b-versatile';
const KEPT = 'groq/llama-3.1-8b-instant';
const KEY = 'gsk-daily-discovery-key';

test('due: usable providers never asked, or last asked a day ago or more', () => {
  const now = 10 * DISCOVERY_EVERY_MS;
  const providers = [
    { id: 'never', usable: true },
    { id: 'fresh', usable: true },
    { id: 'old', usable: true },
    { id: 'keyless', usable: false },
  ];
  const last = new Map([
    ['fresh', now - DISCOVERY_EVERY_MS + 1],
    ['old', now - DISCOVERY_EVERY_MS],
  ]);
  assert.deepEqual(dueDiscoveries(providers, last, now), ['never', 'old']);
  assert.deepEqual(dueDiscoveries(providers, last, now + 1), ['never', 'fresh', 'old']);
  assert.deepEqual(dueDiscoveries([], last, now), []);
});

test('the schedule looks first after a minute, then hourly; a pass under way is joined, not doubled', async () => {
  const clock = new TestClock(0);
  const lastAttempts = new Map<string, number>();
  const asked: string[] = [];
  let answer = deferred<void>();
  const listed: DiscoveryResult = { ok: true, provider: 'a', listed: 1, vanished: [], discovered: [] };
  const logger = recordingLogger();
  const schedule = new DiscoverySchedule({
    candidates: () => [{ id: 'a', usable: true }],
    lastAttempts: () => lastAttempts,
    discover: async (id) => {
      asked.push(id);
      await answer.promise;
      lastAttempts.set(id, clock.now());
      return listed;
    },
    time: clock,
    logger,
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  schedule.start(HOUR, 60_000);
  clock.advance(59_999);
  await settle();
  assert.deepEqual(asked, [], 'nothing before the first look');
  clock.advance(1);
  await settle();
  assert.deepEqual(asked, ['a']);
  // The hourly tick comes while the first fetch still hangs: it joins that pass.
  clock.advance(HOUR);
  await settle();
  assert.deepEqual(asked, ['a']);
  answer.resolve();
  await schedule.pass();
  assert.match(logger.lines.join('\n'), /model discovery of a: 1 listed, 0 vanished, 0 new/);

  answer = deferred<void>();
  answer.resolve();
  for (let hour = 1; hour < 24; hour += 1) {
    clock.advance(HOUR);
    await settle();
  }
  assert.deepEqual(asked, ['a'], 'not again within the day');
  clock.advance(HOUR);
  await settle();
  assert.deepEqual(asked, ['a', 'a'], 'again a day after the last fetch');
  await schedule.stop();
  clock.advance(2 * DISCOVERY_EVERY_MS);
  await settle();
  assert.deepEqual(asked, ['a', 'a'], 'stopped');
});

function groqConfig(baseUrl: string): ConfigInput {
  return {
    providers: { groq: { baseUrl, apiKey: KEY }, local: { baseUrl: `${baseUrl}-local`, models: ['m1'] } },
    sets: { main: [GONE, KEPT] },
    activeSet: 'main',
  };
}

test('daily discovery: a keyed provider’s list is fetched when missing or a day old, and a vanished model is skipped', async () => {
  const upstream = await startFakeUpstream();
  const config = groqConfig(upstream.baseUrl('groq'));
  upstream.always(GONE, json('gone')).always(KEPT, json('kept'));
  upstream.listModels('groq', ['llama-3.1-8b-instant']);
  const router = await startHarness({ config });
  try {
    assert.deepEqual(await router.router.runDueDiscoveries(), ['groq'], 'the keyless provider is not asked');
    assert.deepEqual(upstream.listCalls, [{ provider: 'groq', authorization: `Bearer ${KEY}` }]);
    assert.equal(router.model(GONE).blockedBy, 'model_vanished');
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], `${KEPT}!served|${KEPT}:200|skips=1`);
    assert.deepEqual(router.lastEntry().skipped, [{ model: GONE, reason: 'model_vanished' }]);
    assert.equal(upstream.callsTo(GONE).length, 0);
    assert.match(router.logText(), /model discovery of groq: 1 listed, \d+ vanished, 0 new/);

    assert.deepEqual(await router.router.runDueDiscoveries(), []);
    router.clock.advance(DISCOVERY_EVERY_MS - 60_000);
    assert.deepEqual(await router.router.runDueDiscoveries(), [], 'not before a day');
    router.clock.advance(60_000);
    assert.deepEqual(await router.router.runDueDiscoveries(), ['groq'], 'a day later');
    assert.equal(upstream.listCalls.length, 2);
  } finally {
    await router.close();
    await upstream.close();
  }
});

test('a failed daily discovery is not retried the same day, across a restart, and is logged without the key', async () => {
  const upstream = await startFakeUpstream();
  const clock = new TestClock();
  const config = groqConfig(upstream.baseUrl('groq'));
  const first = await startHarness({ config, clock });
  let second: RouterHarness | null = null;
  try {
    // No list is served: the provider answers 404.
    assert.deepEqual(await first.router.runDueDiscoveries(), ['groq']);
    assert.match(
      first.logText(),
      /model discovery failed \(discovery_failed\): groq: the provider answered HTTP 404/,
    );
    assert.ok(!first.logText().includes(KEY));
    assert.equal(first.model(GONE).blockedBy, null, 'a failed fetch marks nothing');
    clock.advance(12 * HOUR);
    assert.deepEqual(await first.router.runDueDiscoveries(), []);
    await first.stop();
    const saved = await readFile(path.join(first.stateDir, 'discovery.json'), 'utf8');
    assert.ok(!saved.includes(KEY));

    second = await startHarness({ config, clock, dir: first.dir });
    assert.deepEqual(await second.router.runDueDiscoveries(), [], 'the attempt is remembered');
    assert.equal(upstream.listCalls.length, 1);
    upstream.listModels('groq', ['llama-3.1-8b-instant']);
    clock.advance(12 * HOUR);
    assert.deepEqual(await second.router.runDueDiscoveries(), ['groq']);
    assert.equal(second.model(GONE).blockedBy, 'model_vanished');
  } finally {
    await (second ?? first).close();
    await upstream.close();
  }
});

test('a discovery file written before attempts were kept still loads: its lists apply and date the next fetch', async () => {
  const upstream = await startFakeUpstream();
  const clock = new TestClock();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-it-'));
  await mkdir(path.join(dir, 'state'), { recursive: true });
  const fetchedAt = clock.now() - 2 * HOUR;
  const old = {
    version: 1,
    savedAt: fetchedAt,
    providers: { groq: { at: fetchedAt, ids: ['llama-3.1-8b-instant'] } },
  };
  await writeFile(path.join(dir, 'state', 'discovery.json'), JSON.stringify(old));
  upstream.listModels('groq', ['llama-3.1-8b-instant', 'llama-3.3-70b-versatile']);
  const router = await startHarness({ config: groqConfig(upstream.baseUrl('groq')), clock, dir });
  try {
    assert.equal(router.model(GONE).blockedBy, 'model_vanished');
    assert.deepEqual(await router.router.runDueDiscoveries(), []);
    clock.advance(DISCOVERY_EVERY_MS - 2 * HOUR);
    assert.deepEqual(await router.router.runDueDiscoveries(), ['groq']);
    assert.equal(router.model(GONE).blockedBy, null, 'listed again: routable again');
    assert.ok(!router.logText().includes('corrupt'));
  } finally {
    await router.close();
    await upstream.close();
  }
});
