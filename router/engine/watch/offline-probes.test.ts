import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorResponse, ProbeView } from '../../api-types.js';
import { ProbeRefusedError } from './probe-refusal.js';
import { startConnectProxy, type ConnectProxy } from '../../test-support/connect-proxy.js';
import { startFakeUpstream, UNRESOLVABLE_URL } from '../../test-support/fake-upstream.js';
import { parseReply } from '../../test-support/http-client.js';
import { startHarness } from '../../test-support/router-harness.js';
import { json, status } from '../../test-support/upstream-behaviours.js';
import {
  scenarioConfig,
  withScenario,
  type Scenario,
  type ScenarioOptions,
} from '../../test-support/scenario.js';

/**
 * Runs `run` over a scenario whose `alpha` is off this machine: its name resolves nowhere, and only a proxy
 * tunnels to the fake upstream. Every other fake provider is on loopback, a model server on this machine.
 */
async function withRemoteAlpha(
  options: ScenarioOptions,
  run: (scenario: Scenario & { proxy: ConnectProxy }) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  const proxy = await startConnectProxy();
  const alpha = { baseUrl: `http://alpha.invalid:${new URL(upstream.url).port}/alpha` };
  const config = scenarioConfig(upstream, {
    ...options,
    providerSettings: { ...options.providerSettings, alpha },
  });
  const env = { HTTP_PROXY: proxy.url, NO_PROXY: new URL(UNRESOLVABLE_URL).hostname };
  try {
    const router = await startHarness({
      config,
      env,
      ...(options.isOnline ? { isOnline: options.isOnline } : {}),
    });
    try {
      await run({ router, upstream, proxy });
    } finally {
      await router.close();
    }
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

test('probes of models off this machine never run while it is offline, and spend no budget; back online they run', async () => {
  const network = { online: false };
  const options = {
    providers: { alpha: ['m1', 'm2'] },
    probes: { alpha: { enabled: true, idleIntervalMs: 60_000, dailyBudget: 2 } },
    isOnline: () => network.online,
  };
  await withRemoteAlpha(options, async ({ router, upstream, proxy }) => {
    upstream.always('alpha/m1', json('a')).always('alpha/m2', json('b'));
    assert.deepEqual(await router.router.runDueProbes(), []);
    assert.equal(upstream.callsTo('alpha/m1').length + upstream.callsTo('alpha/m2').length, 0);
    assert.equal(router.router.history().entries.length, 0);

    // The dashboard's "probe now" waits for a network too, with the reason named.
    const now = await router.api('POST', '/api/models/probe', { model: 'alpha/m1' });
    assert.equal(now.status, 409);
    assert.equal(parseReply<ErrorResponse>(now).error.code, 'offline');
    assert.equal(upstream.callsTo('alpha/m1').length, 0);

    network.online = true;
    assert.deepEqual(
      await router.router.runDueProbes(),
      ['alpha/m1', 'alpha/m2'],
      'the whole budget is left',
    );
    assert.equal(router.model('alpha/m2').lastProbe?.ok, true);
    assert.equal(proxy.tunnels.length, 2, 'alpha is reached through the proxy alone');
  });
});

test('a pass skips the models off this machine from the moment it goes offline, and probes those on it', async () => {
  const network = { online: true };
  const options = {
    providers: { alpha: ['m1', 'm2'], ollama: ['m3'] },
    probes: {
      alpha: { enabled: true, idleIntervalMs: 60_000, dailyBudget: 3 },
      ollama: { enabled: true, idleIntervalMs: 60_000 },
    },
    isOnline: () => network.online,
  };
  await withRemoteAlpha(options, async ({ router, upstream }) => {
    for (const key of ['alpha/m1', 'alpha/m2', 'ollama/m3']) upstream.always(key, json('hi'));
    const off = router.router.on('request', () => {
      network.online = false;
    });
    await router.router.runDueProbes();
    off();
    assert.equal(upstream.callsTo('alpha/m1').length, 1);
    assert.equal(upstream.callsTo('alpha/m2').length, 0);
    assert.equal(router.model('alpha/m2').lastProbe, null);
    assert.equal(router.model('ollama/m3').lastProbe?.ok, true, 'a model on this machine needs no network');

    network.online = true;
    assert.deepEqual(await router.router.runDueProbes(), ['alpha/m2'], 'its budget is left');
  });
});

/**
 * Ollama on this machine (the fake upstream on 127.0.0.1) and a provider off it whose name resolves
 * nowhere, both with probes on, both tripped by one agent request.
 */
function localAndRemote(isOnline: () => boolean): ScenarioOptions {
  return {
    providers: { ollama: ['m1'] },
    probes: { ollama: { enabled: true } },
    extraProviders: {
      gone: { baseUrl: `${UNRESOLVABLE_URL}/gone`, models: ['m0'], probe: { enabled: true } },
    },
    sets: { main: ['ollama/m1', 'gone/m0'] },
    breaker: { failureThreshold: 1 },
    isOnline,
  };
}

test('offline, a tripped model on this machine is probed back to health; one off it waits for the network', async () => {
  const network = { online: false };
  await withScenario(
    localAndRemote(() => network.online),
    async ({ router, upstream }) => {
      upstream.script('ollama/m1', status(500));
      assert.notEqual((await router.chat()).status, 200);
      assert.deepEqual([router.model('ollama/m1').state, router.model('gone/m0').state], ['OPEN', 'OPEN']);
      router.clock.advance(60_001);

      upstream.always('ollama/m1', json('back'));
      assert.deepEqual(await router.router.runDueProbes(), ['ollama/m1']);
      const ollama = router.model('ollama/m1');
      assert.equal(ollama.state, 'CLOSED', 'its trial probe closed it');
      assert.equal(ollama.lastProbe?.ok, true);
      assert.equal(upstream.callsTo('ollama/m1').length, 2);
      assert.equal(router.lastEntry().attempts[0]?.role, 'trial');
      const gone = router.model('gone/m0');
      assert.deepEqual([gone.state, gone.lastProbe], ['HALF_OPEN', null]);
      assert.equal(router.router.history().entries.length, 2, 'the agent’s request and one probe');

      network.online = true;
      assert.deepEqual(await router.router.runDueProbes(), ['gone/m0'], 'its trial waited for the network');
    },
  );
});

test('offline, "probe now" probes a model on this machine and answers 409 offline for one off it', async () => {
  await withScenario(
    localAndRemote(() => false),
    async ({ router, upstream }) => {
      upstream.always('ollama/m1', json('hi'));
      const local = await router.api('POST', '/api/models/probe', { model: 'ollama/m1' });
      assert.equal(local.status, 200);
      const view = parseReply<ProbeView>(local);
      assert.deepEqual([view.ok, view.kind], [true, null]);
      assert.equal(router.model('ollama/m1').lastProbe?.ok, true);
      assert.equal(upstream.callsTo('ollama/m1').length, 1);

      const remote = await router.api('POST', '/api/models/probe', { model: 'gone/m0' });
      assert.equal(remote.status, 409);
      assert.equal(parseReply<ErrorResponse>(remote).error.code, 'offline');
      assert.equal(router.model('gone/m0').lastProbe, null);
      assert.equal(router.router.history().entries.length, 1, 'the remote model was never tried');
    },
  );
});

test('the library’s probeNow refuses as "probe now" does: offline for a model off this machine, unknown, paused', async () => {
  await withScenario(
    localAndRemote(() => false),
    async ({ router, upstream }) => {
      upstream.always('ollama/m1', json('hi'));
      const refused = (code: string) => (error: unknown) =>
        error instanceof ProbeRefusedError && error.code === code;
      await assert.rejects(router.router.probeNow('gone/m0'), refused('offline'));
      await assert.rejects(router.router.probeNow('nobody/none'), refused('model_not_found'));
      assert.equal((await router.router.probeNow('ollama/m1')).ok, true, 'a model on this machine is probed');
      router.router.setPaused(true);
      await assert.rejects(router.router.probeNow('ollama/m1'), refused('router_paused'));
      assert.equal(upstream.callsTo('ollama/m1').length, 1);
      assert.equal(router.model('gone/m0').lastProbe, null);
      assert.equal(router.router.history().entries.length, 1, 'only the allowed probe was routed');
    },
  );
});
