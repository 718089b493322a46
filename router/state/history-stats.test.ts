import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttemptView, HistoryEntry, RequestOutcome } from '../api-types.js';
import { computeHistoryStats } from './history-stats.js';

const NOW = 1_700_000_000_000;

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
  const stats = computeHistoryStats([]);
  assert.deepEqual(stats, {
    retained: 0,
    tests: 0,
    probes: 0,
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
  const stats = computeHistoryStats(entries);
  assert.equal(stats.retained, 9);
  assert.equal(stats.served, 3);
  assert.equal(stats.allFailed, 1);
  assert.equal(stats.clientAborted, 2);
  assert.equal(stats.partial, 1);
  assert.equal(stats.noCandidates, 1);
  assert.equal(stats.rejected, 1);
  assert.equal(stats.successRate, 3 / 6, 'aborts and refusals are left out');
  assert.equal(stats.failoverRate, 1 / 3);
  assert.equal(stats.avgAttempts, 11 / 9);
  assert.equal(stats.avgWallMs, 18_000 / 9);
});

test('only client aborts: success rate 0, not a division by zero', () => {
  const stats = computeHistoryStats([entry('client_aborted', 1, NOW)]);
  assert.equal(stats.successRate, 0);
  assert.equal(stats.failoverRate, 0);
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
  const stats = computeHistoryStats(entries);
  assert.equal(stats.retained, 5);
  assert.equal(stats.tests, 3);
  assert.equal(stats.probes, 1);
  assert.equal(stats.served, 1);
  assert.equal(stats.allFailed, 1);
  assert.equal(stats.successRate, 1 / 2);
  assert.equal(stats.failoverRate, 0);
  assert.equal(stats.avgAttempts, 3 / 2);
  assert.equal(stats.avgWallMs, 2000);
});
