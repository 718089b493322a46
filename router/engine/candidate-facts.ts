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
  const model = resolved.models.get(key);
  const provider = model ? resolved.providers.get(model.provider) : undefined;
  if (!model || !provider) return { breaker, trialBusy, blocked: 'unknown_model' };
  if (!provider.enabled) return { breaker, trialBusy, blocked: 'provider_disabled' };
  if (provider.baseUrl === null) return { breaker, trialBusy, blocked: 'provider_unresolvable' };
  if (provider.keyRequired && !provider.apiKey) return { breaker, trialBusy, blocked: 'missing_key' };
  if (requestBlocked.has(provider.id) || quotas.isAuthBlocked(provider.id, providerFingerprint(provider))) {
    return { breaker, trialBusy, blocked: 'auth_error' };
  }
  if (quotas.pausedUntil(key, provider.id) !== null) return { breaker, trialBusy, blocked: 'quota_paused' };
  return { breaker, trialBusy, blocked: null };
}
