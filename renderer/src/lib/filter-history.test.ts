import { expect, test } from 'vitest';
import type { HistoryEntry } from '../../../router/api-types.js';
import { matchesFilter, modelsInHistory } from './filter-history.js';

const base: HistoryEntry = {
  requestId: 'r1',
  at: 0,
  modelRequested: 'fcm',
  set: 'default',
  pinned: null,
  servedModel: 'b/two',
  outcome: 'served',
  stream: true,
  wallMs: 10,
  attempts: [
    {
      model: 'a/one',
      status: 200,
      kind: 'empty_choices',
      latencyMs: 4,
      breakerBefore: 'CLOSED',
      role: 'normal',
    },
    { model: 'b/two', status: 200, kind: null, latencyMs: 6, breakerBefore: 'CLOSED', role: 'normal' },
  ],
  skipped: [{ model: 'c/three', reason: 'circuit_open' }],
  client: 'opencode/1.0',
  clientStatus: 200,
  lastResortUsed: false,
  source: 'agent',
  api: 'chat',
  usage: null,
};

test('filters by outcome, failover and any model the request touched', () => {
  expect(matchesFilter(base, { outcome: 'all', model: '' })).toBe(true);
  expect(matchesFilter(base, { outcome: 'failover', model: '' })).toBe(true);
  expect(
    matchesFilter({ ...base, attempts: base.attempts.slice(1) }, { outcome: 'failover', model: '' }),
  ).toBe(false);
  expect(matchesFilter(base, { outcome: 'all_failed', model: '' })).toBe(false);
  expect(matchesFilter(base, { outcome: 'all', model: 'a/one' })).toBe(true);
  expect(matchesFilter(base, { outcome: 'all', model: 'c/three' })).toBe(false);
  expect(modelsInHistory([base])).toEqual(['a/one', 'b/two', 'fcm']);
});
