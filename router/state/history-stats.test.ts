import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttemptView, HistoryEntry, RequestOutcome } from '../api-types.js';
import { computeHistoryStats, startOfLocalDay } from './history-stats.js';

const MIDNIGHT = 1_700_000_000_000;
const NOW = MIDNIGHT + 10 * 3600_000;

function attempt(ok: boolean): AttemptView {
  return {
    model: 'p/m',
    status: ok ? 200 : 429,
    kind: ok ? null : 'rate_limit',
    latencyMs: 100,
    breakerBefore: 'CLOSED',
    role: 'normal',
  };
}

function entry(outcome: RequestOutcome, attempts: number, at: number, wallMs = 1000): HistoryEntry {
  return {
    requestId: `r-${at}-${outcome}-${attempts}`,
    at,
    modelRequested: 'fcm',
    set: 'default',
    pinned: null,
    servedModel: outcome === 'served' ? 'p/m' : null,
    outcome,
    stream: false,
    wallMs,
    attempts: Array.from({ length: attempts }, (_, i) => attempt(outcome === 'served' && i === attempts - 1)),
    skipped: [],
    client: null,
    clientStatus: outcome === 'served' ? 200 : 503,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: null,
  };
}

test('no entries: zeros everywhere', () => {
  const stats = computeHistoryStats([], NOW, MIDNIGHT);
  assert.deepEqual(stats, {
    retained: 0,
    tests: 0,
    served: 0,
    partial: 0,
    allFailed: 0,
    noCandidates: 0,
    clientAborted: 0,
    rejected: 0,
    failoverRate: 0,
    successRate: 0,
    avgAttempts: 0,
    avgWallMs: 0,
    today: { servedFirstTry: 0, servedAfterFailover: 0, failed: 0, promptTokens: 0, completionTokens: 0 },
  });
});

test('counts, rates and averages; client aborts stay out of the success rate', () => {
  const entries = [
    entry('served', 1, NOW, 1000),
    entry('served', 3, NOW, 4000),
    entry('served', 1, NOW, 1000),
    entry('all_failed', 4, NOW, 8000),
    entry('client_aborted', 1, NOW, 500),
    entry('client_aborted', 0, NOW, 500),
    entry('partial', 1, NOW, 3000),
    entry('no_candidates', 0, NOW, 0),
    entry('rejected', 0, NOW, 0),
  ];
  const stats = computeHistoryStats(entries, NOW, MIDNIGHT);
  assert.equal(stats.retained, 9);
  assert.equal(stats.served, 3);
  assert.equal(stats.allFailed, 1);
  assert.equal(stats.clientAborted, 2);
  assert.equal(stats.partial, 1);
  assert.equal(stats.noCandidates, 1);
  assert.equal(stats.rejected, 1);
  assert.equal(stats.successRate, 3 / 7);
  assert.equal(stats.failoverRate, 1 / 3);
  assert.equal(stats.avgAttempts, 11 / 9);
  assert.equal(stats.avgWallMs, 18_000 / 9);
});

test('only client aborts: success rate 0, not a division by zero', () => {
  const stats = computeHistoryStats([entry('client_aborted', 1, NOW)], NOW, MIDNIGHT);
  assert.equal(stats.successRate, 0);
  assert.equal(stats.failoverRate, 0);
});

test('today counts entries from midnight on: first try, after failover, failed', () => {
  const entries = [
    entry('served', 1, MIDNIGHT - 1),
    entry('all_failed', 2, MIDNIGHT - 1),
    entry('served', 1, MIDNIGHT),
    entry('served', 1, NOW),
    entry('served', 2, NOW),
    entry('all_failed', 4, NOW),
    entry('no_candidates', 0, NOW),
    entry('partial', 1, NOW),
    entry('client_aborted', 1, NOW),
    entry('rejected', 0, NOW),
  ];
  const stats = computeHistoryStats(entries, NOW, MIDNIGHT);
  assert.deepEqual(stats.today, {
    servedFirstTry: 2,
    servedAfterFailover: 1,
    failed: 3,
    promptTokens: 0,
    completionTokens: 0,
  });
});

test('tests and probes stay out of every counter and rate; an entry without a source is an agent’s', () => {
  const test = (outcome: RequestOutcome, attempts: number): HistoryEntry => ({
    ...entry(outcome, attempts, NOW, 9000),
    requestId: `t-${outcome}-${attempts}`,
    source: 'test',
  });
  const entries = [
    entry('served', 1, NOW, 1000),
    { ...entry('all_failed', 2, NOW, 3000), source: 'agent' as const },
    test('all_failed', 1),
    test('served', 2),
    { ...test('served', 1), source: 'probe' as const },
  ];
  const stats = computeHistoryStats(entries, NOW, MIDNIGHT);
  assert.equal(stats.retained, 5);
  assert.equal(stats.tests, 3);
  assert.equal(stats.served, 1);
  assert.equal(stats.allFailed, 1);
  assert.equal(stats.successRate, 1 / 2);
  assert.equal(stats.failoverRate, 0);
  assert.equal(stats.avgAttempts, 3 / 2);
  assert.equal(stats.avgWallMs, 2000);
  assert.deepEqual(stats.today, {
    servedFirstTry: 1,
    servedAfterFailover: 0,
    failed: 1,
    promptTokens: 0,
    completionTokens: 0,
  });
});

test('today’s tokens add up the usage of today’s agent requests; unknown counts add nothing', () => {
  const used = (at: number, prompt: number | null, completion: number | null): HistoryEntry => ({
    ...entry('served', 1, at),
    requestId: `u-${at}-${prompt}-${completion}`,
    usage: { promptTokens: prompt, completionTokens: completion },
  });
  const entries = [
    used(MIDNIGHT - 1, 1000, 1000),
    used(NOW, 120, 30),
    used(NOW + 1, null, 7),
    { ...used(NOW + 2, 500, 500), source: 'test' as const },
    { ...entry('partial', 1, NOW), usage: { promptTokens: 40, completionTokens: 3 } },
  ];
  const { today } = computeHistoryStats(entries, NOW, MIDNIGHT);
  assert.equal(today.promptTokens, 160);
  assert.equal(today.completionTokens, 40);
});

test('startOfLocalDay is the local midnight at or before now', () => {
  for (const now of [Date.UTC(2025, 5, 15, 12, 30), Date.UTC(2025, 0, 1, 0, 0, 0, 1), NOW]) {
    const start = startOfLocalDay(now);
    const date = new Date(start);
    assert.ok(start <= now && now - start < 25 * 3600_000);
    assert.deepEqual(
      [date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()],
      [0, 0, 0, 0],
    );
    assert.equal(date.getDate(), new Date(now).getDate());
  }
});
