import { describe, expect, test } from 'vitest';
import type { HistoryEntry, HistoryResponse, StateResponse } from '../../../router/api-types.js';
import { attempt, EMPTY_STATS, historyEntry, modelView, stateOf } from '../test-support/fixtures.js';
import { applyBreaker, applyConfig, applyRequest } from './apply-event.js';

const emptyHistory: HistoryResponse = { entries: [], stats: EMPTY_STATS };

function entry(
  requestId: string,
  attempts: number,
  outcome: HistoryEntry['outcome'] = 'served',
  over: Partial<HistoryEntry> = {},
): HistoryEntry {
  return historyEntry({
    requestId,
    at: 1,
    outcome,
    wallMs: 5,
    attempts: Array.from({ length: attempts }, () => attempt('a/m', { latencyMs: 5 })),
    ...over,
  });
}

describe('applyRequest', () => {
  test('prepends newest first, counts today by outcome (refusals apart), ignores duplicates and caps the list', () => {
    let history = applyRequest(emptyHistory, entry('r1', 1), 2);
    history = applyRequest(
      history,
      entry('r2', 2, 'served', { usage: { promptTokens: 10, completionTokens: 4 } }),
      2,
    );
    history = applyRequest(history, entry('r3', 4, 'all_failed'), 2);
    history = applyRequest(history, entry('r3', 4, 'all_failed'), 2);
    history = applyRequest(history, entry('r4', 0, 'rejected'), 2);
    expect(history.entries.map((e) => e.requestId)).toEqual(['r4', 'r3']);
    expect(history.stats.today).toEqual({
      servedFirstTry: 1,
      servedAfterFailover: 1,
      failed: 1,
      refused: 1,
      promptTokens: 10,
      completionTokens: 4,
    });
  });

  test('requests that reuse one request id are each listed and counted; a replayed event is not', () => {
    let history = emptyHistory;
    for (const seq of [1, 2, 3]) history = applyRequest(history, entry('same-id', 1, 'served', { seq }), 10);
    // The event of the third again, as a reconnect may deliver it beside the refetched history.
    history = applyRequest(history, entry('same-id', 1, 'served', { seq: 3 }), 10);
    expect(history.entries.map((e) => e.seq)).toEqual([3, 2, 1]);
    expect(history.stats.today.servedFirstTry).toBe(3);
    expect(history.stats.retained).toBe(3);
  });

  test('a dashboard test is listed but not counted', () => {
    const history = applyRequest(emptyHistory, entry('t1', 1, 'all_failed', { source: 'test' }), 10);
    expect(history.entries).toHaveLength(1);
    expect(history.stats.today).toEqual(EMPTY_STATS.today);
    expect(history.stats.tests).toBe(1);
    expect(history.stats.probes).toBe(0);
  });

  test('a probe is listed but not counted, and counted as a probe', () => {
    const history = applyRequest(emptyHistory, entry('p1', 1, 'served', { source: 'probe' }), 10);
    expect(history.stats.today).toEqual(EMPTY_STATS.today);
    expect(history.stats.tests).toBe(1);
    expect(history.stats.probes).toBe(1);
  });
});

describe('applyBreaker and applyConfig', () => {
  const state: StateResponse = stateOf([modelView('a/x'), modelView('b/y')]);

  test('replaces the model in place, keeping the routing order', () => {
    const next = applyBreaker(state, modelView('b/y', { state: 'OPEN', openUntil: 99 }));
    expect(next.models.map((m) => [m.key, m.state])).toEqual([
      ['a/x', 'CLOSED'],
      ['b/y', 'OPEN'],
    ]);
    expect(state.models[1]?.state).toBe('CLOSED');
  });

  test('switching sets updates membership', () => {
    const next = applyConfig(state, 'other', { default: ['a/x', 'b/y'], other: ['b/y'] });
    expect(next.activeSet).toBe('other');
    expect(next.models.map((m) => m.inActiveSet)).toEqual([false, true]);
  });
});
