import { expect, test } from 'vitest';
import { attempt, historyEntry } from '../test-support/fixtures.js';
import {
  filterChoices,
  filterFromParams,
  filterToParams,
  matchesFilter,
  newestFirst,
  NO_FILTER,
  UNKNOWN_AGENT,
} from './history-filter.js';

const failover = historyEntry({
  requestId: 'r1',
  modelRequested: 'fcm:@a/one',
  servedModel: 'b/two',
  attempts: [attempt('a/one', { kind: 'empty_choices' }), attempt('b/two')],
  client: 'opencode/1.0',
});
const test1 = historyEntry({
  requestId: 't1',
  modelRequested: 'fcm',
  servedModel: null,
  outcome: 'all_failed',
  source: 'test',
  api: 'messages',
});

test('each filter looks at its own field', () => {
  expect(matchesFilter(failover, NO_FILTER)).toBe(true);
  expect(matchesFilter(failover, { ...NO_FILTER, outcome: 'failover' })).toBe(true);
  expect(
    matchesFilter(
      { ...failover, attempts: failover.attempts.slice(1) },
      { ...NO_FILTER, outcome: 'failover' },
    ),
  ).toBe(false);
  expect(matchesFilter(failover, { ...NO_FILTER, requested: 'fcm:@a/one' })).toBe(true);
  // The requested name and the served model are separate questions.
  expect(matchesFilter(failover, { ...NO_FILTER, served: 'a/one' })).toBe(false);
  expect(matchesFilter(failover, { ...NO_FILTER, served: 'b/two' })).toBe(true);
  expect(matchesFilter(failover, { ...NO_FILTER, face: 'chat' })).toBe(true);
  expect(matchesFilter(test1, { ...NO_FILTER, face: 'chat' })).toBe(false);
  expect(matchesFilter(test1, { ...NO_FILTER, source: 'test' })).toBe(true);
  expect(matchesFilter(failover, { ...NO_FILTER, source: 'test' })).toBe(false);
  expect(matchesFilter(failover, { ...NO_FILTER, source: 'agent' })).toBe(true);
  expect(matchesFilter(test1, { ...NO_FILTER, agent: UNKNOWN_AGENT })).toBe(true);
  expect(matchesFilter(failover, { ...NO_FILTER, agent: 'opencode/1.0' })).toBe(true);
  expect(filterChoices([failover, test1])).toEqual({
    requested: ['fcm', 'fcm:@a/one'],
    served: ['b/two'],
    agents: ['-', 'opencode/1.0'],
  });
});

test('filters and page round-trip through the URL; unknown values are ignored', () => {
  const filter = { ...NO_FILTER, served: 'b/two', outcome: 'failover' as const, source: 'test' as const };
  const params = filterToParams(filter, 3);
  expect(params.toString()).toBe('served=b%2Ftwo&outcome=failover&source=test&page=3');
  expect(filterFromParams(params)).toEqual({ filter, page: 3 });
  expect(filterToParams(NO_FILTER, 1).toString()).toBe('');
  expect(filterFromParams(new URLSearchParams('outcome=bogus&face=smtp&page=-2'))).toEqual({
    filter: NO_FILTER,
    page: 1,
  });
});

test('newest first by start time, whatever order they finished in', () => {
  const started = (id: string, at: number) => historyEntry({ requestId: id, at });
  const finishedOrder = [started('long', 1000), started('short-later', 3000), started('mid', 2000)];
  expect(newestFirst(finishedOrder).map((e) => e.requestId)).toEqual(['short-later', 'mid', 'long']);
});
