import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StateResponse } from '../../api-types.js';
import { startConnectProxy } from '../../test-support/connect-proxy.js';
import {
  deadUrl,
  startFakeUpstream,
  UNRESOLVABLE_URL,
  unreachableProviders,
} from '../../test-support/fake-upstream.js';
import { parseReply } from '../../test-support/http-client.js';
import { startHarness, type RouterHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, withScenario } from '../../test-support/scenario.js';
import { json, reset, status } from '../../test-support/upstream-behaviours.js';

const UNREACHABLE =
  'the last 6 requests failed: no provider reachable (network_error) — check the connection or proxy';

async function stateOf(router: RouterHarness): Promise<StateResponse> {
  const reply = await router.api('GET', '/api/state');
  assert.equal(reply.status, 200);
  return parseReply<StateResponse>(reply);
}

test('providers out of reach: the verdict turns red at the sixth failed agent request, saying why', async () => {
  const options = {
    providers: {},
    extraProviders: await unreachableProviders(),
    sets: { main: ['gone/m0', 'lost/m1'] },
  };
  await withScenario(options, async ({ router }) => {
    for (let i = 0; i < 5; i += 1) assert.equal((await router.chat()).status, 502);
    const before = await stateOf(router);
    assert.equal(before.health.level, 'green', 'five failures are not yet a verdict');
    assert.equal(before.recent.failedInARow, 5);

    assert.equal((await router.chat()).status, 502);
    const after = await stateOf(router);
    assert.equal(after.health.level, 'red');
    assert.equal(after.health.title, 'requests failing');
    assert.equal(after.health.reason, UNREACHABLE);
    assert.equal(after.health.next, 'gone/m0');
    // The offline rule spared the models; the rows can say so.
    assert.deepEqual(
      after.models.filter((m) => m.inActiveSet).map((m) => [m.key, m.state, m.consecutiveFailures]),
      [
        ['gone/m0', 'CLOSED', 0],
        ['lost/m1', 'CLOSED', 0],
      ],
    );
    assert.deepEqual([...after.recent.spared].sort(), ['gone/m0', 'lost/m1']);
    // The router handle (the tray's source in the desktop app) says the same.
    assert.deepEqual(router.router.state().health, after.health);
  });
});

test('local servers that are not running are no sign of the machine being offline: the verdict blames them', async () => {
  const dead = await deadUrl();
  const options = {
    providers: {},
    extraProviders: {
      ollama: { baseUrl: `${dead}/ollama`, models: ['m0'] },
      lmstudio: { baseUrl: `${dead}/lmstudio`, models: ['m1'] },
    },
    sets: { main: ['ollama/m0', 'lmstudio/m1'] },
  };
  await withScenario(options, async ({ router }) => {
    for (let i = 0; i < 6; i += 1) assert.equal((await router.chat()).status, 502);
    const state = await stateOf(router);
    assert.equal(state.health.level, 'red');
    assert.notEqual(state.health.reason, UNREACHABLE, 'nothing says to check the connection');
    assert.deepEqual([state.recent.unreachable, state.recent.spared], [false, []]);
    assert.deepEqual(
      state.models.filter((m) => m.inActiveSet).map((m) => [m.key, m.state]),
      [
        ['ollama/m0', 'OPEN'],
        ['lmstudio/m1', 'OPEN'],
      ],
    );
  });
});

test('a dashboard test that is served does not clear the verdict; an agent request served does', async () => {
  // Both providers are off this machine: gone's name resolves nowhere, and alpha's only through a proxy
  // that tunnels to the fake upstream, so alpha's resets are a remote provider's network errors.
  const upstream = await startFakeUpstream();
  const proxy = await startConnectProxy();
  const config = scenarioConfig(upstream, {
    providers: { alpha: ['m1'] },
    providerSettings: { alpha: { baseUrl: `http://alpha.invalid:${new URL(upstream.url).port}/alpha` } },
    extraProviders: { gone: { baseUrl: `${UNRESOLVABLE_URL}/gone`, models: ['m0'] } },
    sets: { main: ['gone/m0', 'alpha/m1'] },
  });
  const env = { HTTP_PROXY: proxy.url, NO_PROXY: new URL(UNRESOLVABLE_URL).hostname };
  const router = await startHarness({ config, env });
  try {
    upstream.script('alpha/m1', ...Array.from({ length: 6 }, () => reset()));
    for (let i = 0; i < 6; i += 1) assert.equal((await router.chat()).status, 502);
    assert.equal((await stateOf(router)).health.reason, UNREACHABLE);
    assert.equal(proxy.tunnels.length, 6, 'alpha was asked through the proxy each time');

    upstream.always('alpha/m1', json('fine'));
    const tested = await router.chat({}, { headers: { 'x-fcm-source': 'test' } });
    assert.equal(tested.status, 200);
    assert.equal((await stateOf(router)).health.level, 'red', 'a dashboard test is not an agent request');

    const served = await router.chat();
    assert.equal(served.status, 200);
    const state = await stateOf(router);
    assert.equal(state.recent.failedInARow, 0);
    assert.notEqual(state.health.level, 'red');
  } finally {
    await router.close();
    await proxy.close();
    await upstream.close();
  }
});

test('requests every model refuses as malformed turn the verdict amber, saying the requests are at fault', async () => {
  const malformed = status(400, {
    body: {
      error: { message: 'messages.1.content: Input should be a valid string', type: 'invalid_request_error' },
    },
  });
  const options = { providers: { alpha: ['m1'] }, sets: { main: ['alpha/m1'] } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', malformed);
    for (let i = 0; i < 6; i += 1) assert.equal((await router.chat()).status, 400);
    const health = (await stateOf(router)).health;
    assert.deepEqual([health.level, health.title, health.action], ['amber', 'requests refused', null]);
    assert.equal(
      health.reason,
      'the last 6 requests failed: the models refused them (invalid_request) — the requests are at fault, not the models: the errors the agent got say why',
    );
    const model = (await stateOf(router)).models.find((m) => m.key === 'alpha/m1');
    assert.deepEqual(
      [model?.state, model?.consecutiveFailures],
      ['CLOSED', 0],
      'the refusals did the model no harm',
    );
  });
});
