import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProvidersResponse } from '../../api-types.js';
import { deadUrl, startFakeUpstream, UNRESOLVABLE_URL } from '../../test-support/fake-upstream.js';
import { parseReply } from '../../test-support/http-client.js';
import { startHarness } from '../../test-support/router-harness.js';
import { deferred, within } from '../../test-support/deferred.js';
import { after, json, reset, status, type Behaviour } from '../../test-support/upstream-behaviours.js';
import { scenarioConfig, withScenario, type Scenario } from '../../test-support/scenario.js';
import { TestClock } from '../../test-support/test-clock.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, breaker: { failureThreshold: 1 } };
const ALPHA_PROBES = { alpha: { enabled: true } };

test('a probe, not an agent, is the trial of a model whose cooldown passed', async () => {
  await withScenario({ ...TWO, probes: ALPHA_PROBES }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(500)).always('beta/m2', json('beta'));
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'beta/m2');
    assert.equal(router.model('alpha/m1').state, 'OPEN');
    assert.deepEqual(await router.router.runDueProbes(), [], 'the cooldown has not passed');

    router.clock.advance(60_001);
    upstream.always('alpha/m1', json('back'));
    assert.deepEqual(await router.router.runDueProbes(), ['alpha/m1']);
    const alpha = router.model('alpha/m1');
    assert.equal(alpha.state, 'CLOSED');
    assert.equal(alpha.lastProbe?.ok, true);
    const call = upstream.callsTo('alpha/m1').at(-1);
    assert.equal(call?.body?.max_tokens, 5, 'a tiny completion');

    const { entries, stats } = router.router.history();
    const probe = entries[0];
    assert.equal(probe?.source, 'probe');
    assert.equal(probe?.attempts[0]?.role, 'trial');
    assert.equal(stats.served, 1, 'only the agent’s request counts');
    assert.equal(stats.tests, 1);
    assert.equal(router.lastEntry().pinned, 'alpha/m1');
  });
});

test('a failed probe reopens the model with a longer cooldown', async () => {
  await withScenario({ ...TWO, probes: ALPHA_PROBES }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(500)).always('beta/m2', json('beta'));
    await router.chat();
    const cooldown = router.model('alpha/m1').cooldownMs;
    router.clock.advance(60_001);
    assert.deepEqual(await router.router.runDueProbes(), ['alpha/m1']);
    const alpha = router.model('alpha/m1');
    assert.equal(alpha.state, 'OPEN');
    assert.ok(alpha.cooldownMs > cooldown, `cooldown ${alpha.cooldownMs} after ${cooldown}`);
    assert.deepEqual(alpha.lastProbe && { ok: alpha.lastProbe.ok, kind: alpha.lastProbe.kind }, {
      ok: false,
      kind: 'server_error',
    });
  });
});

/**
 * A thinking model whose reasoning is hidden (Gemini's): the reasoning counts against `max_tokens`, so a
 * tiny limit leaves no text (200, no content, finish reason `length`); a roomier request is answered.
 */
const hiddenThinker: Behaviour = (res, call) => {
  const max = call.body?.max_tokens;
  const cut = typeof max === 'number' && max < 64;
  const message = cut ? { role: 'assistant' } : { role: 'assistant', content: 'Hello!' };
  const answer = { choices: [{ index: 0, message, finish_reason: cut ? 'length' : 'stop' }] };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer));
};

test('a probe a thinking model answers with its whole output limit spent on reasoning passes', async () => {
  const options = {
    providers: { gai: ['thinker'] },
    probes: { gai: { enabled: true, idleIntervalMs: 60_000 } },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('gai/thinker', hiddenThinker);
    assert.equal((await router.chat()).status, 200);
    for (let pass = 0; pass < 3; pass += 1) {
      router.clock.advance(60_001);
      assert.deepEqual(await router.router.runDueProbes(), ['gai/thinker']);
    }
    const thinker = router.model('gai/thinker');
    assert.equal(thinker.state, 'CLOSED');
    assert.equal(thinker.consecutiveFailures, 0);
    assert.equal(thinker.lastProbe?.ok, true);
    // An agent's request is held to the strict gate still: the same empty answer fails it.
    const agent = await router.chat({ max_tokens: 5 });
    assert.equal(agent.status, 502);
    assert.equal(router.lastEntry().attempts[0]?.kind, 'empty_content');
  });
});

test('a pass stops at a pause made during it, and reports only the probes it made', async () => {
  const options = {
    providers: { alpha: ['m1', 'm2', 'm3'] },
    probes: { alpha: { enabled: true, idleIntervalMs: 60_000 } },
  };
  await withScenario(options, async ({ router, upstream }) => {
    const first = deferred();
    upstream.always('alpha/m1', after(first.promise, json('hi')));
    for (const key of ['alpha/m2', 'alpha/m3']) upstream.always(key, json('hi'));
    const pass = router.router.runDueProbes();
    await upstream.nextCall('alpha/m1');
    router.router.setPaused(true);
    first.resolve();
    assert.deepEqual(await within(pass, 'the pass'), ['alpha/m1']);
    assert.deepEqual([upstream.callsTo('alpha/m2').length, upstream.callsTo('alpha/m3').length], [0, 0]);
  });
});

test('probes are off unless the provider turns them on, and never run while routing is paused', async () => {
  await withScenario({ ...TWO, probes: ALPHA_PROBES }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(500)).script('beta/m2', status(500));
    await router.chat();
    router.clock.advance(60_001);
    router.router.setPaused(true);
    assert.deepEqual(await router.router.runDueProbes(), []);
    router.router.setPaused(false);
    upstream.always('alpha/m1', json('a')).always('beta/m2', json('b'));
    assert.deepEqual(await router.router.runDueProbes(), ['alpha/m1'], 'beta has no probes');
    assert.equal(router.model('beta/m2').state, 'HALF_OPEN');
    assert.equal(upstream.callsTo('beta/m2').length, 1);
  });
});

test('idle models are probed within the provider’s daily budget', async () => {
  const options = {
    providers: { alpha: ['m1', 'm2', 'm3'] },
    probes: { alpha: { enabled: true, idleIntervalMs: 60_000, dailyBudget: 4 } },
  };
  await withScenario(options, async ({ router, upstream }) => {
    for (const key of ['alpha/m1', 'alpha/m2', 'alpha/m3']) upstream.always(key, json('hi'));
    assert.deepEqual(await router.router.runDueProbes(), ['alpha/m1', 'alpha/m2', 'alpha/m3']);
    assert.equal(router.model('alpha/m2').latency.samples, 1, 'a probe feeds the latency figures');
    assert.deepEqual(await router.router.runDueProbes(), [], 'not idle yet');
    router.clock.advance(30_000);
    await router.chat(); // alpha/m1 serves: it is not idle
    router.clock.advance(29_000);
    assert.deepEqual(await router.router.runDueProbes(), []);
    router.clock.advance(2000);
    assert.deepEqual(await router.router.runDueProbes(), ['alpha/m2'], 'one probe left today');
    router.clock.advance(60_001);
    assert.deepEqual(await router.router.runDueProbes(), [], 'the budget is spent');
    router.clock.advance(12 * 60 * 60 * 1000);
    assert.equal((await router.router.runDueProbes()).length, 3, 'a new day, a new budget');
  });
});

test('"probe now" from the dashboard API', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('hi'));
    const probed = await router.api('POST', '/api/models/probe', { model: 'alpha/m1' });
    assert.equal(probed.status, 200);
    const view = JSON.parse(probed.text) as { ok: boolean; kind: string | null };
    assert.deepEqual({ ok: view.ok, kind: view.kind }, { ok: true, kind: null });
    assert.equal(router.model('alpha/m1').lastProbe?.ok, true);
    const unknown = await router.api('POST', '/api/models/probe', { model: 'nobody/none' });
    assert.equal(unknown.status, 404);
    const bad = await router.api('POST', '/api/models/probe', { model: 'no slash' });
    assert.equal(bad.status, 400);
    router.router.setPaused(true);
    assert.equal((await router.api('POST', '/api/models/probe', { model: 'alpha/m1' })).status, 409);
  });
});

test('a restart keeps the day’s spent probe budget and each model’s last probe', async () => {
  const upstream = await startFakeUpstream();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-it-'));
  try {
    const clock = new TestClock();
    const config = scenarioConfig(upstream, {
      providers: { alpha: ['m1', 'm2'] },
      probes: { alpha: { enabled: true, idleIntervalMs: 60_000, dailyBudget: 3 } },
    });
    upstream.always('alpha/m1', json('a')).always('alpha/m2', json('b'));
    const first = await startHarness({ config, dir, clock });
    assert.deepEqual(await first.router.runDueProbes(), ['alpha/m1', 'alpha/m2']);
    await first.stop();
    assert.ok((await readdir(path.join(dir, 'state'))).includes('probes.json'));

    clock.advance(60_001);
    const second = await startHarness({ config, dir, clock });
    try {
      assert.equal(second.model('alpha/m2').lastProbe?.ok, true, 'the last probe survives');
      assert.deepEqual(await second.router.runDueProbes(), ['alpha/m1'], 'one probe left today');
      clock.advance(60_001);
      assert.deepEqual(await second.router.runDueProbes(), [], 'the budget is spent');
      clock.advance(12 * 60 * 60 * 1000);
      assert.equal((await second.router.runDueProbes()).length, 2, 'a new day, a new budget');
    } finally {
      await second.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await upstream.close();
  }
});

const GONE_PROBES = { enabled: true, idleIntervalMs: 60_000, dailyBudget: 1 };

async function probesSpent(router: Scenario['router'], provider: string): Promise<number | undefined> {
  const { providers } = parseReply<ProvidersResponse>(await router.api('GET', '/api/providers'));
  return providers.find((view) => view.id === provider)?.probe.spentToday;
}

test('a probe whose request never left the machine does not count against the model and gives its budget back', async () => {
  // A name that does not resolve: what every provider off this machine is behind a VPN or bridge interface
  // with no uplink.
  const options = {
    providers: {},
    extraProviders: { gone: { baseUrl: `${UNRESOLVABLE_URL}/gone`, models: ['m0'], probe: GONE_PROBES } },
    sets: { main: ['gone/m0'] },
  };
  await withScenario(options, async ({ router }) => {
    assert.deepEqual(await router.router.runDueProbes(), ['gone/m0']);
    const gone = router.model('gone/m0');
    assert.deepEqual(
      [gone.lastProbe?.kind, gone.consecutiveFailures, gone.state],
      ['network_error', 0, 'CLOSED'],
    );
    assert.equal(router.lastEntry().attempts[0]?.unreached, true);
    assert.equal(await probesSpent(router, 'gone'), 0, 'its budget given back');
    router.clock.advance(59_999);
    assert.deepEqual(await router.router.runDueProbes(), [], 'the next waits a minute');
    router.clock.advance(2);
    assert.deepEqual(await router.router.runDueProbes(), ['gone/m0'], 'the day’s one probe is still there');
    assert.equal(router.model('gone/m0').consecutiveFailures, 0);
  });
});

test('a probe’s network error once its request was sent counts against the model', async () => {
  const options = { providers: { gone: ['m0'] }, probes: { gone: GONE_PROBES } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('gone/m0', reset());
    assert.deepEqual(await router.router.runDueProbes(), ['gone/m0']);
    const gone = router.model('gone/m0');
    assert.deepEqual([gone.lastProbe?.kind, gone.consecutiveFailures], ['network_error', 1]);
    assert.equal(router.lastEntry().attempts[0]?.unreached, undefined);
    assert.equal(await probesSpent(router, 'gone'), 1);
  });
});

test('a local model whose server is not running is re-opened by its trial probe, with a longer cooldown', async () => {
  // Ollama on this machine, not running: its connection refused is its own failure, not the machine offline.
  const dead = await deadUrl();
  const options = {
    providers: {},
    extraProviders: { ollama: { baseUrl: `${dead}/v1`, models: ['m0'], probe: { enabled: true } } },
    sets: { main: ['ollama/m0'] },
    breaker: { failureThreshold: 1 },
  };
  await withScenario(options, async ({ router }) => {
    assert.equal((await router.chat()).status, 502);
    const cooldown = router.model('ollama/m0').cooldownMs;
    router.clock.advance(60_001);
    assert.equal(router.model('ollama/m0').state, 'HALF_OPEN');

    assert.deepEqual(await router.router.runDueProbes(), ['ollama/m0']);
    const ollama = router.model('ollama/m0');
    assert.equal(ollama.state, 'OPEN', 'its failed trial re-opens it');
    assert.ok(ollama.cooldownMs > cooldown, `cooldown ${ollama.cooldownMs} after ${cooldown}`);
    assert.deepEqual([ollama.lastProbe?.kind, ollama.lastFailureKind], ['network_error', 'network_error']);
    assert.equal(router.lastEntry().attempts[0]?.unreached, undefined);
    assert.equal(await probesSpent(router, 'ollama'), 1, 'it reached all there is to reach');
    router.clock.advance(60_001);
    assert.deepEqual(await router.router.runDueProbes(), [], 'the next trial waits for the longer cooldown');
    assert.ok(ollama.openUntil !== null);
    router.clock.set(ollama.openUntil);
    assert.deepEqual(await router.router.runDueProbes(), ['ollama/m0']);
  });
});
