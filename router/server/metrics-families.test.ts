import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttemptView, HistoryEntry } from '../api-types.js';
import { NO_LIMITS } from '../catalogue/free-tier-limits.js';
import { labelKey, parsePrometheus, samplesOf } from '../test-support/prometheus-text.js';
import { metricFamilies } from './metrics-families.js';
import { renderMetrics } from './metrics-text.js';
import { RequestTally } from './request-tally.js';

function attempt(model: string, kind: AttemptView['kind']): AttemptView {
  return {
    model,
    status: kind === null ? 200 : 500,
    kind,
    latencyMs: 5,
    breakerBefore: 'CLOSED',
    role: 'normal',
  };
}

function entry(over: Partial<HistoryEntry>): HistoryEntry {
  return {
    requestId: 'r',
    at: 0,
    modelRequested: 'fcm',
    set: 'main',
    pinned: null,
    servedModel: null,
    outcome: 'served',
    stream: false,
    wallMs: 10,
    attempts: [],
    skipped: [],
    client: null,
    clientStatus: 200,
    lastResortUsed: false,
    usage: null,
    source: 'agent',
    api: 'chat',
    ...over,
  };
}

test('the tally counts requests by outcome, face and source, attempts by kind, tokens by provider', () => {
  const tally = new RequestTally();
  tally.record(
    entry({
      servedModel: 'beta/m2',
      attempts: [attempt('alpha/m1', 'rate_limit'), attempt('beta/m2', null)],
      usage: { promptTokens: 10, completionTokens: null },
    }),
  );
  tally.record(
    entry({
      api: 'responses',
      source: 'probe',
      servedModel: 'beta/m2',
      usage: { promptTokens: 1, completionTokens: 2 },
    }),
  );
  tally.record(entry({ outcome: 'all_failed', attempts: [attempt('alpha/m1', 'rate_limit')] }));
  const families = parsePrometheus(
    renderMetrics(metricFamilies({ tally, models: [], budgets: [], inFlight: 2, startedAt: 1_500 })),
  );
  assert.deepEqual(
    samplesOf(families, 'fcm_router_requests_total'),
    new Map([
      ['face=chat,outcome=all_failed,source=agent', 1],
      ['face=chat,outcome=served,source=agent', 1],
      ['face=responses,outcome=served,source=probe', 1],
    ]),
  );
  assert.deepEqual(
    samplesOf(families, 'fcm_router_attempts_total'),
    new Map([
      ['kind=none', 1],
      ['kind=rate_limit', 2],
    ]),
  );
  assert.deepEqual(
    samplesOf(families, 'fcm_router_tokens_total'),
    new Map([
      ['provider=beta,type=prompt', 11],
      ['provider=beta,type=completion', 2],
    ]),
  );
  assert.deepEqual(samplesOf(families, 'fcm_router_requests_in_flight'), new Map([['', 2]]));
  assert.deepEqual(samplesOf(families, 'fcm_router_start_time_seconds'), new Map([['', 1.5]]));
});

test('every family has HELP and TYPE; breakers one state at 1; budgets by fingerprint with their limits', () => {
  const budget = {
    provider: 'alpha',
    model: 'alpha/m1',
    key: '1a2b3c4d5e6f',
    dayRequests: 4,
    dayTokens: 900,
    minuteRequests: 1,
    minuteTokens: 30,
    limits: { ...NO_LIMITS, rpd: 50 },
  };
  const text = renderMetrics(
    metricFamilies({
      tally: new RequestTally(),
      models: [{ key: 'alpha/m1', provider: 'alpha', state: 'HALF_OPEN' }],
      budgets: [budget, { ...budget, key: '5e6f7a8b9c0d', dayRequests: 7 }],
      inFlight: 0,
      startedAt: 0,
    }),
  );
  const families = parsePrometheus(text);
  for (const family of families.values()) assert.ok(family.help.length > 0, family.name);
  assert.equal(text.match(/^# TYPE /gm)?.length, families.size);
  const breakers = samplesOf(families, 'fcm_router_breaker_state');
  assert.equal(breakers.get(labelKey({ model: 'alpha/m1', provider: 'alpha', state: 'HALF_OPEN' })), 1);
  assert.deepEqual([...breakers.values()].sort(), [0, 0, 0, 1]);
  const used = samplesOf(families, 'fcm_router_budget_used');
  const at = (key: string, window: string, unit: string): number | undefined =>
    used.get(labelKey({ provider: 'alpha', model: 'alpha/m1', key, window, unit }));
  assert.equal(at('1a2b3c4d5e6f', 'day', 'requests'), 4);
  assert.equal(at('5e6f7a8b9c0d', 'day', 'requests'), 7);
  assert.equal(at('1a2b3c4d5e6f', 'minute', 'tokens'), 30);
  assert.deepEqual(
    samplesOf(families, 'fcm_router_budget_limit'),
    new Map([[labelKey({ provider: 'alpha', model: 'alpha/m1', window: 'day', unit: 'requests' }), 50]]),
  );
});
