import { NO_LIMITS } from '../../catalogue/free-tier-limits.js';
import type { ResolvedConfig, ResolvedProvider } from '../../config/resolve-config.js';
import type { BreakerStore } from '../../state/breaker-store.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { keysSummary } from '../booking/key-rotation.js';
import type { CandidateFacts } from './ranking.js';

/** What a model's eligibility owes to the config alone: a config change is a new ResolvedConfig. */
interface StaticFacts {
  blocked:
    'unknown_model' | 'model_vanished' | 'provider_disabled' | 'provider_unresolvable' | 'missing_key' | null;
  provider: ResolvedProvider | null;
}

const staticCache = new WeakMap<ResolvedConfig, Map<string, StaticFacts>>();

function computeStatic(key: string, resolved: ResolvedConfig): StaticFacts {
  const model = resolved.models.get(key);
  const provider = model ? resolved.providers.get(model.provider) : undefined;
  if (!model || !provider) return { blocked: 'unknown_model', provider: null };
  const blocked = model.vanished
    ? 'model_vanished'
    : !provider.enabled
      ? 'provider_disabled'
      : provider.baseUrl === null
        ? 'provider_unresolvable'
        : provider.keyRequired && !provider.apiKey
          ? 'missing_key'
          : null;
  return { blocked, provider };
}

/**
 * The last config asked about and its facts: ranking asks for every model of a set in a row (it keeps
 * that one config alive until another is asked about).
 */
let last: { resolved: ResolvedConfig; facts: Map<string, StaticFacts> } | null = null;

/** The config-only facts of a model, computed once per ResolvedConfig (ranking reads them per request). */
function staticFacts(key: string, resolved: ResolvedConfig): StaticFacts {
  let perConfig = last?.resolved === resolved ? last.facts : staticCache.get(resolved);
  if (perConfig === undefined) {
    perConfig = new Map();
    staticCache.set(resolved, perConfig);
  }
  if (last?.resolved !== resolved) last = { resolved, facts: perConfig };
  let facts = perConfig.get(key);
  if (facts === undefined) {
    facts = computeStatic(key, resolved);
    perConfig.set(key, facts);
  }
  return facts;
}

/**
 * Gathers what ranking needs about one model from the config and the stores. `requestRefused` holds the
 * keys (`keyId`) refused earlier in this same request. A model is blocked by its keys only when none of
 * its provider's keys can take it.
 */
export function candidateFacts(
  key: string,
  resolved: ResolvedConfig,
  breakers: BreakerStore,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
): CandidateFacts {
  const breaker = breakers.get(key);
  const trialBusy = breakers.isTrialBusy(key);
  const fixed = staticFacts(key, resolved);
  if (fixed.blocked !== null || fixed.provider === null) {
    return { breaker, trialBusy, blocked: fixed.blocked ?? 'unknown_model' };
  }
  const target = resolved.models.get(key) ?? { key, limits: NO_LIMITS, limited: false };
  const { block, near } = keysSummary(fixed.provider, target, quotas, requestRefused);
  if (block !== null) return { breaker, trialBusy, blocked: block.reason };
  return near
    ? { breaker, trialBusy, blocked: null, nearBudget: true }
    : { breaker, trialBusy, blocked: null };
}
