/**
 * The key an attempt goes with (of the provider's usable keys, one with room in its sliding minute for the
 * request first), and whether any key it could go with has room: the fit check asks that, so that it and
 * the key choice agree.
 */
import type { ProviderKey, ResolvedProvider } from '../../config/resolve-config.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { budgetId, keysBlock, keysOf, keyStanding, type KeyTarget } from './key-rotation.js';

/**
 * A request under this share of a key's tokens-per-minute is not checked against what is left of the
 * minute: the budget's near/at standing already ranks a busy key behind, and the check costs a walk of the
 * minute per key.
 */
const MINUTE_CHECK_SHARE = 0.2;

/** Whether a request of `size` tokens is checked against the minute's room of the target's keys. */
function minuteChecked(target: KeyTarget, size: number): boolean {
  const { tpm } = target.limits;
  return tpm !== null && size >= tpm * MINUTE_CHECK_SHARE;
}

/** When `key`'s sliding minute has room for `size` more tokens of the model: null when it has now. */
function keyRoomAt(
  provider: ResolvedProvider,
  target: KeyTarget,
  key: ProviderKey,
  quotas: QuotaBook,
  size: number,
): number | null {
  const tpm = target.limits.tpm;
  if (tpm === null) return null;
  const id = budgetId(provider, target.key, key.fingerprint);
  return quotas.budgets.minuteRoomAt(id, provider.dayTimeZone, tpm, size);
}

/** What an attempt asks of its key: not refused in this request, not tried on the model yet, room for its size. */
export interface KeyAsk {
  /** The keys (`keyId`) refused earlier in this request. */
  refused: ReadonlySet<string>;
  /** Fingerprints tried on the model in this request: a provider has a key or a few, so a list. */
  tried: readonly string[];
  /** The request's size in tokens, as sent to the model. */
  size: number;
}

/**
 * When a key the model would be sent with has room in its sliding minute for `size` tokens: null when one
 * has now (or the request is too small to check, or the model has no TPM), else the soonest moment one
 * has. `refused` holds the keys (`keyId`) refused earlier in this request. The keys counted are the usable ones (`keyStanding`), as key rotation picks among them; with none
 * usable (a pinned model or the last resort goes anyway), every key.
 */
export function minuteRoomAt(
  provider: ResolvedProvider,
  target: KeyTarget,
  quotas: QuotaBook,
  refused: ReadonlySet<string>,
  size: number,
): number | null {
  // Asked of every model a request is fitted to: nothing is looked up for a request too small to check.
  if (!minuteChecked(target, size)) return null;
  const anyUsable = keysBlock(provider, target, quotas, refused) === null;
  let soonest: number | null = null;
  for (const key of keysOf(provider)) {
    if (anyUsable && keyStanding(provider, target, key, quotas, refused).type !== 'usable') continue;
    const at = keyRoomAt(provider, target, key, quotas, size);
    if (at === null) return null;
    if (soonest === null || at < soonest) soonest = at;
  }
  return soonest;
}

/**
 * The key for the next attempt on the model: a usable key not yet tried on it in this request, the first
 * with room in its minute for the request and not near its budget, else the first with room, else the first
 * not near its budget, else the first (a full minute is a near-certain 429, worse than a budget nearly used).
 * For the first attempt with no usable key (a pinned model, the last resort: tried whatever their state) the
 * first key not refused, else the first key. Null when the model has no key left to rotate to.
 */
export function nextKey(
  provider: ResolvedProvider,
  target: KeyTarget,
  quotas: QuotaBook,
  ask: KeyAsk,
): ProviderKey | null {
  const keys = keysOf(provider);
  const checked = minuteChecked(target, ask.size);
  let best: ProviderKey | null = null;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const key of keys) {
    if (ask.tried.includes(key.fingerprint)) continue;
    const now = keyStanding(provider, target, key, quotas, ask.refused);
    if (now.type !== 'usable') continue;
    const full = checked && keyRoomAt(provider, target, key, quotas, ask.size) !== null;
    const rank = (full ? 2 : 0) + (now.near ? 1 : 0);
    if (rank === 0) return key;
    if (rank < bestRank) {
      best = key;
      bestRank = rank;
    }
  }
  if (best !== null || ask.tried.length > 0) return best;
  const notRefused = (key: ProviderKey): boolean =>
    keyStanding(provider, target, key, quotas, ask.refused).type !== 'invalid';
  return keys.find(notRefused) ?? keys[0] ?? null;
}
