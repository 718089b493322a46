import { describe, expect, test } from 'vitest';
import type { AttemptView, HistoryEntry, RequestOutcome } from '../../../router/api-types.js';
import { bucketOutcomes, seriesTotals } from './history-buckets.js';

const attempt: AttemptView = {
  model: 'a/m',
  status: 200,
  kind: null,
  latencyMs: 100,
  breakerBefore: 'CLOSED',
  role: 'normal',
};

function entry(at: number, outcome: RequestOutcome, attempts = 1): HistoryEntry {
  return {
    requestId: `r${at}`,
    at,
    modelRequested: 'fcm',
    set: 'default',
    pinned: null,
    servedModel: outcome === 'served' ? 'a/m' : null,
    outcome,
    stream: false,
    wallMs: 100,
    attempts: Array.from({ length: attempts }, () => attempt),
    skipped: [],
    client: null,
    clientStatus: 200,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: null,
  };
}

describe('bucketOutcomes', () => {
  const now = 10 * 3_600_000 + 30_000;

  test('splits served requests by attempts, counts failures and refusals, ignores aborts, tests and old entries', () => {
    const series = bucketOutcomes(
      [
        entry(now - 1000, 'served'),
        entry(now - 2000, 'served', 2),
        entry(now - 3000, 'all_failed', 4),
        entry(now - 4000, 'client_aborted'),
        entry(now - 4500, 'rejected', 0),
        entry(now - 4600, 'rejected', 0),
        entry(now - 2 * 3_600_000, 'served'),
        { ...entry(now - 5000, 'all_failed'), source: 'test' },
      ],
      now,
    );
    expect(series.t).toHaveLength(30);
    expect(seriesTotals(series)).toEqual({ firstTry: 1, afterFailover: 1, failed: 1, refused: 2 });
    expect(series.refused.at(-1)).toBe(2);
    expect(series.failoverRate.at(-1)).toBe(50);
    expect(series.failoverRate[0]).toBeNull();
  });

  test('bucket edges are aligned to the clock and ordered in time', () => {
    const series = bucketOutcomes([], now);
    expect((series.t[0] ?? 0) % 120).toBe(0);
    expect(series.t.every((t, i) => i === 0 || t > (series.t[i - 1] ?? 0))).toBe(true);
    expect(series.t.at(-1)).toBeLessThanOrEqual(now / 1000);
  });
});
