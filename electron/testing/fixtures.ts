/** Builders of router snapshots for the desktop tests. Test-only: not part of the packaged app. */
import type { AttemptView, HistoryEntry, ModelStateView, StateResponse } from '../../router/api-types.js';

export function model(key: string, overrides: Partial<ModelStateView> = {}): ModelStateView {
  const [provider = key, ...rest] = key.split('/');
  return {
    key,
    provider,
    modelId: rest.join('/'),
    label: null,
    state: 'CLOSED',
    consecutiveFailures: 0,
    tripCount: 0,
    cooldownMs: 30_000,
    openUntil: null,
    quotaPausedUntil: null,
    authBlocked: false,
    missingKey: false,
    providerEnabled: true,
    lastFailureKind: null,
    lastFailureAt: null,
    inActiveSet: true,
    stats: { attempts: 0, successes: 0, successRate: null, p50LatencyMs: null, recentLatencyMs: [] },
    ...overrides,
  };
}

export function snapshot(models: ModelStateView[], overrides: Partial<StateResponse> = {}): StateResponse {
  return {
    activeSet: 'default',
    sets: { default: models.filter((m) => m.inActiveSet).map((m) => m.key) },
    paused: false,
    failureThreshold: 3,
    models,
    ...overrides,
  };
}

export function attempt(
  modelKey: string,
  kind: AttemptView['kind'],
  status: number | null = 200,
): AttemptView {
  return { model: modelKey, status, kind, latencyMs: 100, breakerBefore: 'CLOSED', role: 'normal' };
}

export function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    requestId: 'req-1',
    at: 0,
    modelRequested: 'fcm',
    set: 'default',
    pinned: null,
    servedModel: null,
    outcome: 'served',
    stream: false,
    wallMs: 100,
    attempts: [],
    skipped: [],
    client: null,
    clientStatus: 200,
    lastResortUsed: false,
    source: 'agent',
    api: 'chat',
    usage: null,
    ...overrides,
  };
}
