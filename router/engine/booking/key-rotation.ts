/**
 * Where each of a provider's keys stands for a model. A provider may have several keys: a key that is rate
 * limited, out of credit or refused waits (per key, in the quota book) while the model goes on with the
 * next usable key (`key-choice.ts` picks it). A model is skipped only when none of its provider's keys can
 * take it.
 */
import type { BudgetLimits } from '../../catalogue/free-tier-limits.js';
import type { ProviderKey, ResolvedProvider } from '../../config/resolve-config.js';
import type { PauseInfo, QuotaBook } from '../../state/quota-book.js';
import { scopedId } from '../../state/scoped-id.js';

/** The model a key is chosen for: its key and its free-tier limits (a `ResolvedModel` is one). */
export interface KeyTarget {
  key: string;
  limits: BudgetLimits;
  /** Whether any of `limits` is set. */
  limited: boolean;
}

/** The stand-in key of a provider used without one (a keyless or local provider): no Authorization header. */
const NO_KEY: ProviderKey = Object.freeze({ value: '', fingerprint: '', source: 'none' });
const NO_KEYS: readonly ProviderKey[] = Object.freeze([NO_KEY]);

/** The keys a provider's models are tried with, in order (one stand-in without a key). */
export function keysOf(provider: ResolvedProvider): readonly ProviderKey[] {
  return provider.keys.length > 0 ? provider.keys : NO_KEYS;
}

/** The id of a provider's key in a request's set of refused keys. */
export function keyId(providerId: string, fingerprint: string): string {
  return scopedId(providerId, fingerprint);
}

/**
 * The budget counter of a key for a model: the model's own, or the account's when limits are per key (the
 * same key on two providers of one account, Mistral and Codestral, counts once).
 */
export function budgetId(provider: ResolvedProvider, modelKey: string, fingerprint: string): string {
  return scopedId(provider.quotaScope === 'key' ? provider.quotaAccount : modelKey, fingerprint);
}

/** Where one key stands for one model now. */
export type KeyStanding =
  /** `near`: at least one budget is mostly used. */
  | { type: 'usable'; near: boolean }
  | { type: 'paused'; until: number }
  /** A free-tier budget is used up until `until`. */
  | { type: 'budget'; until: number }
  /** Refused (401/403) and not changed since. */
  | { type: 'invalid' };

const USABLE: KeyStanding = { type: 'usable', near: false };
const NEAR: KeyStanding = { type: 'usable', near: true };

/** Where `key` stands for the model: refused earlier in this request or before, paused, at its budget, or usable. */
export function keyStanding(
  provider: ResolvedProvider,
  target: KeyTarget,
  key: ProviderKey,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
): KeyStanding {
  const { fingerprint } = key;
  // Ranking asks this for every model of a set on every request: the usual case, nothing refused, paused
  // or blocked, builds no lookup keys at all.
  if (requestRefused.size > 0 && requestRefused.has(keyId(provider.id, fingerprint)))
    return { type: 'invalid' };
  if (!quotas.isClear()) {
    if (quotas.isAuthBlocked(provider.id, fingerprint)) return { type: 'invalid' };
    const until = quotas.pausedUntil(target.key, provider.quotaAccount, fingerprint);
    if (until !== null) return { type: 'paused', until };
  }
  // Without limits only a provider's own "nothing left" can hold the key (see `countAttemptEnd`).
  if (!target.limited && !quotas.budgets.holding()) return USABLE;
  const id = budgetId(provider, target.key, fingerprint);
  const budget = quotas.budgets.standing(id, provider.dayTimeZone, target.limits);
  if (budget.type === 'at') return { type: 'budget', until: budget.until };
  return budget.type === 'near' ? NEAR : USABLE;
}

/** Why no key can take the model now, with the soonest moment one is back. */
export type KeysBlock = { reason: 'auth_error' } | { reason: 'quota_paused' | 'quota_budget'; until: number };

/**
 * Why no key of the provider can take the model now (`auth_error` when every key was refused; else
 * `quota_budget` when only budgets hold it back, `quota_paused` otherwise, with the soonest moment a key
 * is back), or null when one can; and `near` when every usable key is near a budget.
 */
export function keysSummary(
  provider: ResolvedProvider,
  target: KeyTarget,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
): { block: KeysBlock | null; near: boolean } {
  let soonest: number | null = null;
  let paused = false;
  let usable = false;
  let near = true;
  for (const key of keysOf(provider)) {
    const standing = keyStanding(provider, target, key, quotas, requestRefused);
    if (standing.type === 'usable') {
      usable = true;
      near &&= standing.near;
      continue;
    }
    if (standing.type === 'invalid') continue;
    if (standing.type === 'paused') paused = true;
    if (soonest === null || standing.until < soonest) soonest = standing.until;
  }
  if (usable) return { block: null, near };
  if (soonest === null) return { block: { reason: 'auth_error' }, near: false };
  return { block: { reason: paused ? 'quota_paused' : 'quota_budget', until: soonest }, near: false };
}

/** Why no key of the provider can take the model now, or null when one can (see {@link keysSummary}). */
export function keysBlock(
  provider: ResolvedProvider,
  target: KeyTarget,
  quotas: QuotaBook,
  requestRefused: ReadonlySet<string>,
): KeysBlock | null {
  return keysSummary(provider, target, quotas, requestRefused).block;
}

/**
 * The pause that holds `modelKey` back until `until` (the soonest end among its provider's keys, as
 * {@link keysBlock} gives it), or null when no pause ends then (a free-tier budget does).
 */
export function pauseEndingAt(
  provider: ResolvedProvider,
  modelKey: string,
  quotas: QuotaBook,
  until: number,
): PauseInfo | null {
  for (const key of keysOf(provider)) {
    const pause = quotas.pauseInfo(modelKey, provider.quotaAccount, key.fingerprint);
    if (pause?.until === until) return pause;
  }
  return null;
}

/**
 * The key a dashboard test names by its fingerprint: that key whatever its state (a test is how a refused or
 * paused key is checked again), or null when the provider has no key with that fingerprint.
 */
export function namedKey(provider: ResolvedProvider, fingerprint: string): ProviderKey | null {
  return provider.keys.find((key) => key.fingerprint === fingerprint) ?? null;
}
