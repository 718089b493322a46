/**
 * `GET /metrics` of a real daemon, loaded by Chromium: a Prometheus text parser reads it, and its counters
 * match `/api/history`; budget use is by the key fingerprint `/api/usage` shows, never the key.
 */
import { expect, test } from '@playwright/test';
import type { HistoryResponse, UsageResponse } from '../router/api-types.js';
import { labelKey, parsePrometheus, samplesOf } from '../router/test-support/prometheus-text.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { FakeUpstream } from './helpers/fake-upstream.js';
import { send } from './helpers/send.js';

const KEY = 'sk-e2e-metrics-0123456789abcdef';

let upstream: FakeUpstream;
let daemon: Daemon;

test.beforeAll(async () => {
  upstream = await new FakeUpstream(5).start();
  daemon = await startDaemon({
    providers: { up: { baseUrl: upstream.baseUrl, apiKey: KEY, models: ['m1', 'm2'], limits: { rpd: 100 } } },
    sets: { default: ['up/m1', 'up/m2'] },
  });
});

test.afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
});

test('/metrics counts served, failed-over and refused requests as /api/history has them', async ({
  page,
}) => {
  expect((await send(daemon.url)).status).toBe(200);
  expect((await send(daemon.url, { stream: true })).status).toBe(200);
  upstream.script('m1', 'error-500');
  const failover = await send(daemon.url);
  expect(failover.decision).toBe('up/m2!served|up/m1:500->up/m2:200|skips=0');
  expect((await send(daemon.url, { model: 'fcm:@nobody/none' })).status).toBe(404);

  const response = await page.goto(`${daemon.url}/metrics`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  const text = (await response?.text()) ?? '';
  expect(text).not.toContain(KEY);
  const families = parsePrometheus(text);

  const history = (await (
    await page.request.get(`${daemon.url}/api/history?limit=500`)
  ).json()) as HistoryResponse;
  expect(history.entries).toHaveLength(4);
  const requests = new Map<string, number>();
  const attempts = new Map<string, number>();
  for (const entry of history.entries) {
    const key = labelKey({ outcome: entry.outcome, face: entry.api, source: entry.source });
    requests.set(key, (requests.get(key) ?? 0) + 1);
    for (const attempt of entry.attempts) {
      const kind = labelKey({ kind: attempt.kind ?? 'none' });
      attempts.set(kind, (attempts.get(kind) ?? 0) + 1);
    }
  }
  expect(samplesOf(families, 'fcm_router_requests_total')).toEqual(requests);
  expect(samplesOf(families, 'fcm_router_attempts_total')).toEqual(attempts);
  expect(requests.get('face=chat,outcome=served,source=agent')).toBe(3);
  expect(requests.get('face=chat,outcome=rejected,source=agent')).toBe(1);
  expect(attempts.get('kind=server_error')).toBe(1);

  // The budget counts every request sent on the key, the failed one too, as a provider's limits do.
  const usage = (await (await page.request.get(`${daemon.url}/api/usage`)).json()) as UsageResponse;
  const m1 = usage.days.at(-1)?.entries.find((entry) => entry.model === 'up/m1');
  expect(m1?.key).toMatch(/^[0-9a-f]{12}$/);
  expect(m1?.requests).toBe(2);
  const used = samplesOf(families, 'fcm_router_budget_used');
  const labels = { provider: 'up', model: 'up/m1', key: m1?.key ?? '', window: 'day', unit: 'requests' };
  expect(used.get(labelKey(labels))).toBe(upstream.calls.get('m1'));
  expect(upstream.calls.get('m1')).toBe(3);
});
