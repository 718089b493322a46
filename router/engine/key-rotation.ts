/**
 * Which of a provider's keys a model is tried with. A provider may have several keys: a key that is rate
 * limited, out of credit or refused waits (per key, in the quota book) while the model goes on with the
 * next usable key. A model is skipped only when none of its provider's keys can take it.
 */
import type { ProviderKey, ResolvedProvider } from '../config/resolve-config.js';
import type { QuotaBook } from '../state/quota-book.js';

/** The stand-in key of a provider used without one (a keyless or local provider): no Authorization header. */
const NO_KEY: ProviderKey = Object.freeze({ value: '', fingerprint: '', source: 'none' });
const NO_KEYS: readonly ProviderKey[] = Object.freeze([NO_KEY]);

/** The keys a provider's models are tried with, in order (one stand-in without a key). */
export function keysOf(provider: ResolvedProvider): readonly ProviderKey[] {
  return provider.keys.length > 0 ? provider.keys : NO_KEYS;
}

/** The id of a provider's key in a request's set of refused keys. */
export function keyId(providerId: string, fingerprint: string): string {
  return `${providerId} @${fingerprint}`;
}

/** Where one key stands for one model now. */
export type KeyStanding =
  | { type: 'usable' }
  | { type: 'paused'; until: number }
  /** Refused (401/403) and not changed since. */
  | { type: 'invalid' };

/** Where `key` stands for `modelKey`: refused earlier in this request or before, paused, or usable. */
export function keyStanding(
  provider: ResolvedProvider,
  modelKey: string,
  key: ProviderKey,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
): KeyStanding {
  const { fingerprint } = key;
  if (requestRefused.has(keyId(provider.id, fingerprint)) || quotas.isAuthBlocked(provider.id, fingerprint))
    return { type: 'invalid' };
  const until = quotas.pausedUntil(modelKey, provider.id, fingerprint);
  return until === null ? { type: 'usable' } : { type: 'paused', until };
}

/**
 * Why no key of the provider can take `modelKey` now (`auth_error` when every key was refused, else
 * `quota_paused`, with the soonest moment a paused key is back), or null when one can.
 */
export function keysBlock(
  provider: ResolvedProvider,
  modelKey: string,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
): { reason: 'auth_error' } | { reason: 'quota_paused'; until: number } | null {
  let soonest: number | null = null;
  for (const key of keysOf(provider)) {
    const standing = keyStanding(provider, modelKey, key, quotas, requestRefused);
    if (standing.type === 'usable') return null;
    if (standing.type === 'paused' && (soonest === null || standing.until < soonest))
      soonest = standing.until;
  }
  return soonest === null ? { reason: 'auth_error' } : { reason: 'quota_paused', until: soonest };
}

/**
 * The key for the next attempt on `modelKey`: the first usable key not yet tried on it in this request.
 * For the first attempt with no usable key (a pinned model, the last resort: tried whatever their state)
 * the first key not refused, else the first key. Null when the model has no key left to rotate to.
 */
export function nextKey(
  provider: ResolvedProvider,
  modelKey: string,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
  tried: ReadonlySet<string>,
): ProviderKey | null {
  const keys = keysOf(provider);
  const untried = keys.filter((key) => !tried.has(key.fingerprint));
  const standing = (key: ProviderKey): KeyStanding =>
    keyStanding(provider, modelKey, key, quotas, requestRefused);
  const usable = untried.find((key) => standing(key).type === 'usable');
  if (usable !== undefined || tried.size > 0) return usable ?? null;
  return keys.find((key) => standing(key).type !== 'invalid') ?? keys[0] ?? null;
}
