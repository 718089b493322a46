import type {
  HistoryEntry,
  ModelBlock,
  ModelStateView,
  ProbeView,
  QuotaPauseView,
  StateResponse,
} from '../../api-types.js';
import type { ResolvedConfig, ResolvedProvider } from '../../config/resolve-config.js';
import { degradedTrialAt, openUntil } from '../../state/breaker.js';
import type { BreakerStore } from '../../state/breaker-store.js';
import type { FitBook } from '../../state/fit-book.js';
import type { LatencyBook, ModelStatsBook } from '../../state/model-stats.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { candidateFacts } from '../routing/candidate-facts.js';
import { fastestOrder } from '../routing/fastest-order.js';
import { refusalsBehindIn } from '../routing/refusals-behind.js';
import { keysBlock, pauseEndingAt } from '../booking/key-rotation.js';
import { NO_LIMITS } from '../../catalogue/free-tier-limits.js';
import { healthVerdict } from './health-verdict.js';
import { rankCandidates } from '../routing/ranking.js';
import { recentOutcomes } from './recent-outcomes.js';

export interface StateSources {
  resolved: ResolvedConfig;
  breakers: BreakerStore;
  quotas: QuotaBook;
  /** What refusals taught about each model. */
  fits: FitBook;
  modelStats: ModelStatsBook;
  latency: LatencyBook;
  /** The last probe of a model, if any. */
  lastProbe: (key: string) => ProbeView | null;
  /** Models pinned by a request since start. */
  pinned: ReadonlySet<string>;
  /** The request history, newest first (read only as far as the verdict needs). */
  history: Iterable<HistoryEntry>;
  paused: boolean;
  now: number;
}

/** The pause of the key that holds the model back until `until` (the soonest of its paused keys). */
function quotaPauseView(
  key: string,
  provider: ResolvedProvider,
  quotas: QuotaBook,
  until: number,
): QuotaPauseView | null {
  const pause = pauseEndingAt(provider, key, quotas, until);
  if (pause === null) return null;
  const { reason, authoritative, scope, repeat } = pause;
  return { until, reason, fromProvider: authoritative, scope, repeat };
}

/** One model's view for `/api/state` and the `breaker` event. */
export function modelView(
  key: string,
  src: Omit<StateSources, 'pinned' | 'paused' | 'history'>,
): ModelStateView {
  const { resolved, breakers, quotas } = src;
  const breaker = breakers.get(key);
  const model = resolved.models.get(key);
  const slash = key.indexOf('/');
  const providerId = model?.provider ?? key.slice(0, Math.max(0, slash));
  const provider = resolved.providers.get(providerId);
  const activeSet = resolved.sets[resolved.activeSet] ?? [];
  // The check ranking makes, so the dashboard and the next request agree on why a model is skipped.
  const blockedBy: ModelBlock | null = candidateFacts(key, resolved, breakers, quotas, new Set()).blocked;
  // Paused or refused only when no key of the provider can take the model.
  const keyBlock = provider
    ? keysBlock(provider, model ?? { key, limits: NO_LIMITS, limited: false }, quotas, new Set())
    : null;
  return {
    key,
    provider: providerId,
    modelId: model?.modelId ?? key.slice(slash + 1),
    label: model?.label ?? null,
    state: breaker.state,
    consecutiveFailures: breaker.consecutiveFailures,
    tripCount: breaker.tripCount,
    cooldownMs: breaker.cooldownMs,
    openUntil: openUntil(breaker),
    trialDueAt: degradedTrialAt(breaker, resolved.config.router.breaker),
    quotaPausedUntil: keyBlock !== null && keyBlock.reason !== 'auth_error' ? keyBlock.until : null,
    quotaPause:
      provider && keyBlock?.reason === 'quota_paused'
        ? quotaPauseView(key, provider, quotas, keyBlock.until)
        : null,
    authBlocked: keyBlock?.reason === 'auth_error',
    missingKey: provider ? provider.keyRequired && !provider.apiKey : false,
    providerEnabled: provider?.enabled ?? false,
    lastFailureKind: breaker.lastFailureKind,
    lastFailureAt: breaker.lastFailureAt,
    inActiveSet: activeSet.includes(key),
    blockedBy,
    stats: src.modelStats.get(key),
    latency: src.latency.get(key),
    lastProbe: src.lastProbe(key),
    refusedServedAt: src.fits.lately(key, 'refusedServedAt'),
    ignoredForcedAt: src.fits.lately(key, 'ignoredForcedAt'),
  };
}

/**
 * The `/api/state` snapshot: the active set first in the order the next request would try it (skipped
 * models after, in set order), then every other set's models, then models pinned since start; what the
 * newest agent requests of the active set got; and the health verdict on both.
 */
export function buildState(src: StateSources): StateResponse {
  const { resolved, breakers, quotas, now } = src;
  const active = resolved.sets[resolved.activeSet] ?? [];
  const ranking = rankCandidates(
    active,
    (key) => candidateFacts(key, resolved, breakers, quotas, new Set()),
    now,
    resolved.config.router.breaker,
  );
  // A `fastest` set routes its healthy models by speed: shown as the next request (not exploring) takes them.
  const fastest = resolved.config.router.ranking.order[resolved.activeSet] === 'fastest';
  // As a request that forces no tool call finds it.
  const { order } = refusalsBehindIn(
    src.fits,
    fastest ? fastestOrder(ranking.order, (key) => src.latency.get(key), false) : ranking.order,
    false,
  );
  const ordered: string[] = order.map((candidate) => candidate.key);
  const seen = new Set(ordered);
  const push = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    ordered.push(key);
  };
  active.forEach(push);
  Object.values(resolved.sets).forEach((set) => set.forEach(push));
  src.pinned.forEach(push);
  const models = ordered.map((key) => modelView(key, src));
  const recent = recentOutcomes({ newestFirst: src.history, activeSet: resolved.activeSet });
  return {
    activeSet: resolved.activeSet,
    sets: Object.fromEntries(Object.entries(resolved.sets).map(([name, keys]) => [name, [...keys]])),
    paused: src.paused,
    failureThreshold: resolved.config.router.breaker.failureThreshold,
    health: healthVerdict({ paused: src.paused, activeSet: resolved.activeSet, models, recent }, now),
    recent,
    models,
  };
}
