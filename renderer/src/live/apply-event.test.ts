import { describe, expect, test } from 'vitest';
import type {
  HistoryEntry,
  HistoryResponse,
  ModelStateView,
  StateResponse,
} from '../../../router/api-types.js';
import { applyBreaker, applyConfig, applyRequest } from './apply-event.js';

const emptyHistory: HistoryResponse = {
  entries: [],
  stats: {
    retained: 0,
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
    today: { servedFirstTry: 0, servedAfterFailover: 0, failed: 0 },
  },
};

function entry(
  requestId: string,
  attempts: number,
  outcome: HistoryEntry['outcome'] = 'served',
): HistoryEntry {
  return {
    requestId,
    at: 1,
    modelRequested: 'fcm',
    set: 'default',
    pinned: null,
    servedModel: 'a/m',
    outcome,
    stream: false,
    wallMs: 5,
    attempts: Array.from({ length: attempts }, () => ({
      model: 'a/m',
      status: 200,
      kind: null,
      latencyMs: 5,
      breakerBefore: 'CLOSED' as const,
      role: 'normal' as const,
    })),
    skipped: [],
    client: null,
    clientStatus: 200,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: null,
  };
}

function model(key: string, over: Partial<ModelStateView> = {}): ModelStateView {
  const [provider = '', modelId = ''] = key.split('/');
  return {
    key,
    provider,
    modelId,
    label: null,
    state: 'CLOSED',
    consecutiveFailures: 0,
    tripCount: 0,
    cooldownMs: 30000,
    openUntil: null,
    quotaPausedUntil: null,
    authBlocked: false,
    missingKey: false,
    providerEnabled: true,
    lastFailureKind: null,
    lastFailureAt: null,
    inActiveSet: true,
    stats: { attempts: 0, successes: 0, successRate: null, p50LatencyMs: null, recentLatencyMs: [] },
    ...over,
  };
}

describe('applyRequest', () => {
  test('prepends newest first, counts today by outcome, ignores duplicates and caps the list', () => {
    let history = applyRequest(emptyHistory, entry('r1', 1), 2);
    history = applyRequest(history, entry('r2', 2), 2);
    history = applyRequest(history, entry('r3', 4, 'all_failed'), 2);
    history = applyRequest(history, entry('r3', 4, 'all_failed'), 2);
    expect(history.entries.map((e) => e.requestId)).toEqual(['r3', 'r2']);
    expect(history.stats.today).toEqual({ servedFirstTry: 1, servedAfterFailover: 1, failed: 1 });
  });
});

describe('applyBreaker and applyConfig', () => {
  const state: StateResponse = {
    activeSet: 'default',
    sets: { default: ['a/x', 'b/y'] },
    paused: false,
    failureThreshold: 3,
    models: [model('a/x'), model('b/y')],
  };

  test('replaces the model in place, keeping the routing order', () => {
    const next = applyBreaker(state, model('b/y', { state: 'OPEN', openUntil: 99 }));
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
