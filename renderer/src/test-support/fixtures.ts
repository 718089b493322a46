import type {
  AttemptView,
  HealthVerdict,
  HistoryEntry,
  HistoryStats,
  KeyView,
  ModelStateView,
  ProviderView,
  RecentOutcomes,
  StateResponse,
} from '../../../router/api-types.js';

/** Builders of router answers for component and library tests. */

export function attempt(model: string, over: Partial<AttemptView> = {}): AttemptView {
  return { model, status: 200, kind: null, latencyMs: 100, breakerBefore: 'CLOSED', role: 'normal', ...over };
}

export function historyEntry(over: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    requestId: 'r1',
    at: 0,
    modelRequested: 'fcm',
    set: 'default',
    pinned: null,
    servedModel: 'a/m',
    outcome: 'served',
    stream: false,
    wallMs: 100,
    attempts: [attempt('a/m')],
    skipped: [],
    client: null,
    clientStatus: 200,
    lastResortUsed: false,
    usage: null,
    source: 'agent',
    api: 'chat',
    ...over,
  };
}

export function modelView(key: string, over: Partial<ModelStateView> = {}): ModelStateView {
  const slash = key.indexOf('/');
  return {
    key,
    provider: key.slice(0, slash),
    modelId: key.slice(slash + 1),
    label: null,
    state: 'CLOSED',
    consecutiveFailures: 0,
    tripCount: 0,
    cooldownMs: 30_000,
    openUntil: null,
    trialDueAt: null,
    quotaPausedUntil: null,
    quotaPause: null,
    authBlocked: false,
    missingKey: false,
    providerEnabled: true,
    lastFailureKind: null,
    lastFailureAt: null,
    inActiveSet: true,
    blockedBy: null,
    stats: { attempts: 0, successes: 0, successRate: null, p50LatencyMs: null, recentLatencyMs: [] },
    latency: { ttfbMs: null, ttfbP50Ms: null, ttfbP95Ms: null, tokensPerSec: null, samples: 0, lastAt: null },
    lastProbe: null,
    refusedServedAt: null,
    ignoredForcedAt: null,
    ...over,
  };
}

export const GREEN: HealthVerdict = {
  level: 'green',
  title: 'routing',
  reason: 'next request goes to a/x',
  action: null,
  next: 'a/x',
  counts: { total: 1, routable: 1, closed: 1, out: 0 },
  backAt: null,
};

/** No agent request of the set failing. */
export const QUIET: RecentOutcomes = {
  window: 6,
  failedInARow: 0,
  causes: [],
  unreachable: false,
  spared: [],
  lastAt: null,
};

export function stateOf(models: ModelStateView[], over: Partial<StateResponse> = {}): StateResponse {
  return {
    activeSet: 'default',
    sets: { default: models.filter((m) => m.inActiveSet).map((m) => m.key) },
    paused: false,
    failureThreshold: 3,
    health: GREEN,
    recent: QUIET,
    models,
    ...over,
  };
}

export const EMPTY_STATS: HistoryStats = {
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
  today: {
    servedFirstTry: 0,
    servedAfterFailover: 0,
    failed: 0,
    refused: 0,
    promptTokens: 0,
    completionTokens: 0,
  },
};

export function providerView(id: string, over: Partial<ProviderView> = {}): ProviderView {
  return {
    id,
    name: id,
    signupUrl: null,
    keyStatus: 'set',
    keySource: 'config',
    enabled: true,
    custom: false,
    unresolvable: false,
    keys: [],
    discoveredAt: null,
    discoveredNew: [],
    models: [],
    probe: { enabled: false, dailyBudget: 50, idleIntervalMs: null, spentToday: 0 },
    limits: { published: { rpm: null, rpd: null, tpm: null, tpd: null }, override: {} },
    ...over,
  };
}

export function keyView(fingerprint: string, over: Partial<KeyView> = {}): KeyView {
  return {
    fingerprint,
    source: 'config',
    state: 'usable',
    pausedUntil: null,
    pausedModels: 0,
    budgets: [],
    ...over,
  };
}
