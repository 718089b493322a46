import type { ResolvedConfig, ResolvedProvider } from '../config/resolve-config.js';
import type { BreakerStore } from '../state/breaker-store.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { CandidateFacts } from './ranking.js';

const fingerprints = new WeakMap<ResolvedProvider, string>();

/** The persisted identity of a provider's key (a hash, never the key). */
export function providerFingerprint(provider: ResolvedProvider): string {
  let value = fingerprints.get(provider);
  if (value === undefined) {
    value = keyFingerprint(provider.apiKey);
    fingerprints.set(provider, value);
  }
  return value;
}

/** What a model's eligibility owes to the config alone: a config change is a new ResolvedConfig. */
interface StaticFacts {
  blocked: 'unknown_model' | 'provider_disabled' | 'provider_unresolvable' | 'missing_key' | null;
  providerId: string;
  fingerprint: string;
}

const staticCache = new WeakMap<ResolvedConfig, Map<string, StaticFacts>>();

function computeStatic(key: string, resolved: ResolvedConfig): StaticFacts {
  const model = resolved.models.get(key);
  const provider = model ? resolved.providers.get(model.provider) : undefined;
  if (!model || !provider) return { blocked: 'unknown_model', providerId: '', fingerprint: '' };
  const blocked = !provider.enabled
    ? 'provider_disabled'
    : provider.baseUrl === null
      ? 'provider_unresolvable'
      : provider.keyRequired && !provider.apiKey
        ? 'missing_key'
        : null;
  return { blocked, providerId: provider.id, fingerprint: providerFingerprint(provider) };
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
 * Gathers what ranking needs about one model from the config and the stores. `requestBlocked` holds the
 * providers that refused their key earlier in this same request.
 */
export function candidateFacts(
  key: string,
  resolved: ResolvedConfig,
  breakers: BreakerStore,
  quotas: QuotaBook,
  requestBlocked: ReadonlySet<string>,
): CandidateFacts {
  const breaker = breakers.get(key);
  const trialBusy = breakers.isTrialBusy(key);
  const fixed = staticFacts(key, resolved);
  if (fixed.blocked !== null) return { breaker, trialBusy, blocked: fixed.blocked };
  const { providerId } = fixed;
  if (requestBlocked.has(providerId) || quotas.isAuthBlocked(providerId, fixed.fingerprint)) {
    return { breaker, trialBusy, blocked: 'auth_error' };
  }
  if (quotas.pausedUntil(key, providerId) !== null) return { breaker, trialBusy, blocked: 'quota_paused' };
  return { breaker, trialBusy, blocked: null };
}
