/** Builders of router snapshots for the desktop tests. Test-only: not part of the packaged app. */
import type {
  AttemptView,
  HistoryEntry,
  ModelBlock,
  ModelStateView,
  StateResponse,
} from '../../router/api-types.js';
import { healthVerdict } from '../../router/engine/views/health-verdict.js';
import { recentOutcomes } from '../../router/engine/views/recent-outcomes.js';

/** What the router's ranking would skip a model for, from the flags a test sets (its order of checks). */
function blockOf(m: Partial<ModelStateView>): ModelBlock | null {
  if (m.providerEnabled === false) return 'provider_disabled';
  if (m.missingKey) return 'missing_key';
  if (m.authBlocked) return 'auth_error';
  if (m.quotaPausedUntil !== null && m.quotaPausedUntil !== undefined) return 'quota_paused';
  return null;
}

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
    trialDueAt: null,
    quotaPausedUntil: null,
    quotaPause: null,
    authBlocked: false,
    missingKey: false,
    providerEnabled: true,
    lastFailureKind: null,
    lastFailureAt: null,
    inActiveSet: true,
    blockedBy: blockOf(overrides),
    stats: { attempts: 0, successes: 0, successRate: null, p50LatencyMs: null, recentLatencyMs: [] },
    latency: { ttfbMs: null, ttfbP50Ms: null, ttfbP95Ms: null, tokensPerSec: null, samples: 0, lastAt: null },
    lastProbe: null,
    refusedServedAt: null,
    ignoredForcedAt: null,
    ...overrides,
  };
}

/** A state snapshot; its health verdict is the router's, as of `at`. */
export function snapshot(
  models: ModelStateView[],
  overrides: Partial<StateResponse> = {},
  at = 0,
): StateResponse {
  const paused = overrides.paused ?? false;
  const activeSet = overrides.activeSet ?? 'default';
  const recent = overrides.recent ?? recentOutcomes({ newestFirst: [], activeSet });
  return {
    activeSet,
    sets: { default: models.filter((m) => m.inActiveSet).map((m) => m.key) },
    paused,
    failureThreshold: 3,
    health: healthVerdict({ paused, activeSet, models, recent }, at),
    recent,
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
