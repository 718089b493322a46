import { expect, test } from 'vitest';
import { attempt, historyEntry } from '../test-support/fixtures.js';
import { modelEvents, modelSeries } from './model-series.js';

const NOW = 10 * 3_600_000;

const entries = [
  historyEntry({
    requestId: 'r1',
    at: NOW - 60_000,
    attempts: [attempt('a/x', { kind: 'empty_choices', latencyMs: 200 }), attempt('b/y', { latencyMs: 300 })],
  }),
  historyEntry({ requestId: 'r2', at: NOW - 50_000, attempts: [attempt('a/x', { latencyMs: 400 })] }),
  historyEntry({ requestId: 'r3', at: NOW - 40_000, attempts: [attempt('a/x', { latencyMs: 600 })] }),
  historyEntry({
    requestId: 'r4',
    at: NOW - 30_000,
    source: 'test',
    attempts: [attempt('a/x', { kind: 'server_error', breakerBefore: 'OPEN', role: 'pinned' })],
  }),
  historyEntry({ requestId: 'old', at: NOW - 2 * 3_600_000, attempts: [attempt('a/x')] }),
];

test('a model’s success share and median latency per bucket, agent attempts of the last hour only', () => {
  const series = modelSeries(entries, 'a/x', NOW);
  expect(series.t).toHaveLength(12);
  expect(series.attempts).toBe(3);
  const last = series.t.length - 2;
  expect(series.success[last]).toBeCloseTo(200 / 3);
  expect(series.latency[last]).toBe(400);
  expect(series.success.filter((v) => v !== null)).toHaveLength(1);
  expect(modelSeries(entries, 'b/y', NOW).latency[last]).toBe(300);
});

test('a model’s events, oldest first: attempts with their kind, trials and tests marked', () => {
  const events = modelEvents(entries, 'a/x', NOW - 3_600_000);
  expect(events.map((e) => [e.ok, e.kind, e.trial, e.source])).toEqual([
    [false, 'empty_choices', false, 'agent'],
    [true, null, false, 'agent'],
    [true, null, false, 'agent'],
    [false, 'server_error', true, 'test'],
  ]);
  // The second attempt of a request starts after the first.
  expect(modelEvents(entries, 'b/y', 0)[0]?.at).toBe(NOW - 60_000 + 200);
});
