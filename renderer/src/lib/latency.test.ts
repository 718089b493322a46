import { expect, test } from 'vitest';
import { attempt, historyEntry } from '../test-support/fixtures.js';
import { bucketFirstByte, firstByteMs, firstByteSummary, percentile } from './latency.js';

const NOW = 10 * 3_600_000;

test('time to first byte adds the attempts up to the one that served; nothing served, no time', () => {
  const failover = historyEntry({
    attempts: [attempt('a/x', { kind: 'empty_choices', latencyMs: 300 }), attempt('b/y', { latencyMs: 450 })],
  });
  expect(firstByteMs(failover)).toBe(750);
  expect(firstByteMs({ ...failover, outcome: 'all_failed' })).toBeNull();
  expect(firstByteMs({ ...failover, attempts: [] })).toBeNull();
});

test('percentiles by nearest rank', () => {
  const values = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
  expect(percentile(values, 50)).toBe(100);
  expect(percentile(values, 95)).toBe(190);
  expect(percentile([7], 95)).toBe(7);
  expect(percentile([], 50)).toBeNull();
});

test('the last hour’s summary counts served agent requests only', () => {
  const served = (at: number, ms: number, source?: 'test') =>
    historyEntry({ requestId: `r${at}`, at, attempts: [attempt('a/x', { latencyMs: ms })], source });
  const entries = [
    served(NOW - 1000, 100),
    served(NOW - 2000, 300),
    served(NOW - 3000, 200),
    served(NOW - 4000, 9000, 'test'),
    served(NOW - 2 * 3_600_000, 9000),
    historyEntry({ at: NOW - 500, outcome: 'all_failed' }),
  ];
  expect(firstByteSummary(entries, NOW)).toEqual({ p50: 200, p95: 300, count: 3 });
  const series = bucketFirstByte(entries, NOW);
  expect(series.t).toHaveLength(30);
  expect(series.p50.filter((v) => v !== null)).toEqual([200]);
  expect(series.p95.at(-2)).toBe(300);
});
