/**
 * Provider keys are write-only over the API: the config goes out with every key masked, and a masked
 * key coming back means "keep the one you have".
 */
import { createHmac, randomBytes } from 'node:crypto';
import { MASKED_SECRET } from '../api-types.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import type { ConfigInput } from './schema.js';

type Providers = NonNullable<ConfigInput['providers']>;

function mapProviders(
  raw: ConfigInput,
  map: (id: string, provider: Providers[string]) => Providers[string],
): ConfigInput {
  if (raw.providers === undefined) return { ...raw };
  const providers = Object.fromEntries(
    Object.entries(raw.providers).map(([id, provider]) => [id, map(id, provider)]),
  );
  return { ...raw, providers };
}

/**
 * How one key of `apiKeys` is shown: the mask and the key's fingerprint (`********6f0b3c1d2e4a`), so an
 * edited list can say which keys it keeps.
 */
export function maskedListKey(key: string): string {
  return `${MASKED_SECRET}${keyFingerprint(key)}`;
}

/**
 * A copy of `raw` with every non-empty `providers.*.apiKey` replaced by {@link MASKED_SECRET} and every
 * key of `providers.*.apiKeys` by {@link maskedListKey}.
 */
export function maskSecrets(raw: ConfigInput): ConfigInput {
  return mapProviders(raw, (_id, provider) => {
    const masked = provider.apiKey ? { ...provider, apiKey: MASKED_SECRET } : { ...provider };
    if (provider.apiKeys !== undefined)
      masked.apiKeys = provider.apiKeys.map((key) => (key === '' ? key : maskedListKey(key)));
    return masked;
  });
}

/**
 * Providers whose stored keys `incoming` keeps (sends back masked) while sending the provider somewhere
 * else: a changed `baseUrl` (set, changed or removed), or custom headers added or changed. A key is meant
 * for one address; such a change would carry it to another, so the keys are dropped unless the same change
 * sets them again. Removing headers keeps them.
 */
export function keysLeavingTheirAddress(incoming: ConfigInput, current: ConfigInput): string[] {
  const leaving: string[] = [];
  for (const [id, provider] of Object.entries(incoming.providers ?? {})) {
    const keepsMasked =
      provider.apiKey === MASKED_SECRET ||
      (provider.apiKeys ?? []).some((key) => key.startsWith(MASKED_SECRET));
    if (!keepsMasked) continue;
    const before =
      current.providers && Object.hasOwn(current.providers, id) ? current.providers[id] : undefined;
    if (before === undefined || (!before.apiKey && (before.apiKeys ?? []).length === 0)) continue;
    if (provider.baseUrl !== before.baseUrl || headersAddedOrChanged(provider.headers, before.headers))
      leaving.push(id);
  }
  return leaving;
}

/**
 * True when `next` adds a header to `before` or gives one another value: the change that carries a key to
 * another address. Removing headers is none. Values compare as given: as written, or each as its
 * {@link headerDigests} entry.
 */
export function headersAddedOrChanged(
  next: Readonly<Record<string, string>> | undefined,
  before: Readonly<Record<string, string>> | undefined,
): boolean {
  const old = before ?? {};
  return Object.entries(next ?? {}).some(([name, value]) => !Object.hasOwn(old, name) || old[name] !== value);
}

/** Compares header values without keeping them (they may hold secrets): this process's own key. */
const DIGEST_KEY = randomBytes(32);

/** A provider's custom headers with each value replaced by a keyed digest of it, for this process only. */
export function headerDigests(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, value]) => [
      name,
      createHmac('sha256', DIGEST_KEY).update(value).digest('hex'),
    ]),
  );
}

/**
 * A copy of `incoming` where each apiKey equal to {@link MASKED_SECRET} is the current key again, except
 * for the providers in `drop`. A provider or an apiKey left out of `incoming` is removed, as sent; a mask
 * with no current key behind it is dropped rather than saved as a key.
 */
export function restoreMaskedSecrets(
  incoming: ConfigInput,
  current: ConfigInput,
  drop: ReadonlySet<string> = new Set(),
): ConfigInput {
  return mapProviders(incoming, (id, provider) => {
    const now = current.providers && Object.hasOwn(current.providers, id) ? current.providers[id] : undefined;
    const restored = { ...provider };
    if (provider.apiKey === MASKED_SECRET) {
      delete restored.apiKey;
      const kept = now?.apiKey;
      if (!drop.has(id) && kept !== undefined && kept !== MASKED_SECRET) restored.apiKey = kept;
    }
    if (provider.apiKeys !== undefined) {
      const byMask = new Map(
        drop.has(id) ? [] : (now?.apiKeys ?? []).map((key) => [maskedListKey(key), key]),
      );
      restored.apiKeys = provider.apiKeys.flatMap((key) => {
        if (!key.startsWith(MASKED_SECRET)) return [key];
        const kept = byMask.get(key);
        return kept === undefined ? [] : [kept];
      });
    }
    return restored;
  });
}
