/**
 * `GET /metrics` on a started router over a real fake upstream: the counters a Prometheus text parser reads
 * match `/api/history`, the breakers `/api/state`, the budgets `/api/usage`; keys appear by fingerprint
 * only; the guards and, in remote mode, the token hold as for `/api/*`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEntry, HistoryResponse, StateResponse, UsageResponse } from '../api-types.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { startFakeUpstream, type FakeUpstream } from '../test-support/fake-upstream.js';
import { httpRequest, parseReply } from '../test-support/http-client.js';
import { labelKey, parsePrometheus, samplesOf } from '../test-support/prometheus-text.js';
import { startHarness, type RouterHarness } from '../test-support/router-harness.js';
import { scenarioConfig } from '../test-support/scenario.js';
import { jsonBody, status } from '../test-support/upstream-behaviours.js';
import { completion } from '../test-support/upstream-frames.js';

const ALPHA_KEY = 'sk-test-alpha-secret-0123456789';

async function withMetricsRouter(
  options: { allowRemote?: boolean },
  run: (router: RouterHarness, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream();
  let router: RouterHarness | null = null;
  try {
    const config = scenarioConfig(upstream, {
      providers: { alpha: ['m1'], beta: ['m2'] },
      keys: { alpha: ALPHA_KEY },
      providerSettings: { alpha: { limits: { rpd: 100, tpm: 50_000 } } },
      // One failure trips a breaker, so a single 500 shows in the breaker metric.
      breaker: { failureThreshold: 1 },
    });
    router = await startHarness({ config, allowRemote: options.allowRemote === true });
    upstream
      .always('alpha/m1', jsonBody(completion('a', { usage: { prompt_tokens: 7, completion_tokens: 3 } })))
      .always('beta/m2', jsonBody(completion('b', { usage: { prompt_tokens: 11, completion_tokens: 2 } })));
    await run(router, upstream);
  } finally {
    await router?.close();
    await upstream.close();
  }
}

/** What the history says the counters must be, as `labelKey` → value. */
function expectedCounters(entries: readonly HistoryEntry[]) {
  const requests = new Map<string, number>();
  const attempts = new Map<string, number>();
  const tokens = new Map<string, number>();
  const add = (map: Map<string, number>, labels: Record<string, string>, by: number): void => {
    const key = labelKey(labels);
    map.set(key, (map.get(key) ?? 0) + by);
  };
  for (const entry of entries) {
    add(requests, { outcome: entry.outcome, face: entry.api, source: entry.source }, 1);
    for (const attempt of entry.attempts) add(attempts, { kind: attempt.kind ?? 'none' }, 1);
    if (entry.servedModel === null || entry.usage === null) continue;
    const provider = entry.servedModel.split('/')[0] ?? '';
    add(tokens, { provider, type: 'prompt' }, entry.usage.promptTokens ?? 0);
    add(tokens, { provider, type: 'completion' }, entry.usage.completionTokens ?? 0);
  }
  return { requests, attempts, tokens };
}

test('/metrics counts served, failed-over and refused requests as /api/history has them', async () => {
  await withMetricsRouter({}, async (router, upstream) => {
    assert.equal((await router.chat()).status, 200);
    upstream.script('alpha/m1', status(500));
    const failover = await router.chat();
    assert.equal(failover.headers['x-fcm-v2-decision'], 'beta/m2!served|alpha/m1:500->beta/m2:200|skips=0');
    assert.equal((await router.chat({ model: 'fcm:@nobody/none' })).status, 404);
    const messages = await httpRequest(`${router.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'any' },
      body: JSON.stringify({ model: 'fcm', max_tokens: 50, messages: [{ role: 'user', content: 'Hi.' }] }),
    });
    assert.equal(messages.status, 200);

    const reply = await router.get('/metrics');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const families = parsePrometheus(reply.text);
    const history = parseReply<HistoryResponse>(await router.get('/api/history?limit=500'));
    assert.equal(history.entries.length, 4);
    const expected = expectedCounters(history.entries);
    assert.deepEqual(samplesOf(families, 'fcm_router_requests_total'), expected.requests);
    assert.deepEqual(samplesOf(families, 'fcm_router_attempts_total'), expected.attempts);
    assert.deepEqual(samplesOf(families, 'fcm_router_tokens_total'), expected.tokens);
    // Pinned, not only derived: the history itself is what the scenario made.
    assert.deepEqual(
      expected.requests,
      new Map([
        ['face=chat,outcome=rejected,source=agent', 1],
        ['face=chat,outcome=served,source=agent', 2],
        ['face=messages,outcome=served,source=agent', 1],
      ]),
    );
    assert.equal(expected.attempts.get('kind=server_error'), 1);
    assert.equal(families.get('fcm_router_requests_total')?.type, 'COUNTER');
  });
});

test('/metrics shows each model’s breaker state as /api/state has it, one state at 1', async () => {
  await withMetricsRouter({}, async (router, upstream) => {
    upstream.script('alpha/m1', status(500));
    assert.equal((await router.chat()).status, 200);
    const state = parseReply<StateResponse>(await router.get('/api/state'));
    const breakers = samplesOf(
      parsePrometheus((await router.get('/metrics')).text),
      'fcm_router_breaker_state',
    );
    assert.equal(breakers.size, state.models.length * 4);
    for (const model of state.models)
      for (const name of ['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN']) {
        const labels = labelKey({ model: model.key, provider: model.provider, state: name });
        assert.equal(breakers.get(labels), model.state === name ? 1 : 0, labels);
      }
    assert.equal(router.model('alpha/m1').state, 'OPEN', 'the 500 tripped alpha’s breaker');
  });
});

test('/metrics shows budget use per key fingerprint, matching /api/usage, and never the key', async () => {
  await withMetricsRouter({}, async (router) => {
    for (let i = 0; i < 3; i += 1) assert.equal((await router.chat()).status, 200);
    const reply = await router.get('/metrics');
    assert.ok(!reply.text.includes(ALPHA_KEY), 'the key itself');
    assert.ok(!reply.text.includes('sk-test-'), 'no part of any key');
    const fingerprint = keyFingerprint(ALPHA_KEY);
    const usage = parseReply<UsageResponse>(await router.get('/api/usage'));
    const usageEntry = usage.days.at(-1)?.entries.find((entry) => entry.model === 'alpha/m1');
    assert.equal(usageEntry?.key, fingerprint);
    const families = parsePrometheus(reply.text);
    const used = samplesOf(families, 'fcm_router_budget_used');
    const labels = { provider: 'alpha', model: 'alpha/m1', key: fingerprint };
    assert.equal(used.get(labelKey({ ...labels, window: 'day', unit: 'requests' })), usageEntry?.requests);
    assert.equal(usageEntry?.requests, 3);
    assert.equal(used.get(labelKey({ ...labels, window: 'minute', unit: 'requests' })), 3);
    const limits = samplesOf(families, 'fcm_router_budget_limit');
    assert.deepEqual(
      limits,
      new Map([
        [labelKey({ provider: 'alpha', model: 'alpha/m1', window: 'day', unit: 'requests' }), 100],
        [labelKey({ provider: 'alpha', model: 'alpha/m1', window: 'minute', unit: 'tokens' }), 50_000],
      ]),
    );
  });
});

test('/metrics keeps the API’s guards: a foreign Host is refused, and remote mode wants the token', async () => {
  await withMetricsRouter({ allowRemote: true }, async (router) => {
    const foreign = await router.get('/metrics', { host: 'evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal((await router.get('/metrics')).status, 403);
    assert.equal((await router.get('/metrics', { authorization: 'Bearer wrong' })).status, 403);
    const bearer = await router.get('/metrics', { authorization: `Bearer ${router.token}` });
    assert.equal(bearer.status, 200);
    assert.ok(parsePrometheus(bearer.text).has('fcm_router_requests_total'));
    assert.equal((await router.get('/metrics', { 'x-fcm-token': router.token })).status, 200);
    const post = await httpRequest(`${router.url}/metrics`, {
      method: 'POST',
      headers: { 'x-fcm-token': router.token, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(post.status, 405);
  });
});
