/**
 * Provider keys are write-only over the API: the config goes out with every key masked, and a masked
 * key coming back means "keep the one you have".
 */
import { MASKED_SECRET } from '../api-types.js';
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

/** A copy of `raw` with every non-empty `providers.*.apiKey` replaced by {@link MASKED_SECRET}. */
export function maskSecrets(raw: ConfigInput): ConfigInput {
  return mapProviders(raw, (_id, provider) =>
    provider.apiKey ? { ...provider, apiKey: MASKED_SECRET } : { ...provider },
  );
}

/**
 * Providers whose stored key `incoming` keeps (sends back masked) while sending the provider somewhere
 * else: a changed `baseUrl` (set, changed or removed), or custom headers added or changed. A key is meant
 * for one address; such a change would carry it to another, so the key is dropped unless the same change
 * sets one again. Removing headers keeps the key.
 */
export function keysLeavingTheirAddress(incoming: ConfigInput, current: ConfigInput): string[] {
  const leaving: string[] = [];
  for (const [id, provider] of Object.entries(incoming.providers ?? {})) {
    if (provider.apiKey !== MASKED_SECRET) continue;
    const before =
      current.providers && Object.hasOwn(current.providers, id) ? current.providers[id] : undefined;
    if (!before?.apiKey) continue;
    const oldHeaders = before.headers ?? {};
    const headersChanged = Object.entries(provider.headers ?? {}).some(
      ([name, value]) => !Object.hasOwn(oldHeaders, name) || oldHeaders[name] !== value,
    );
    if (provider.baseUrl !== before.baseUrl || headersChanged) leaving.push(id);
  }
  return leaving;
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
    if (provider.apiKey !== MASKED_SECRET) return { ...provider };
    const { apiKey: _masked, ...rest } = provider;
    if (drop.has(id)) return rest;
    const kept =
      current.providers && Object.hasOwn(current.providers, id) ? current.providers[id]?.apiKey : undefined;
    return kept !== undefined && kept !== MASKED_SECRET ? { ...rest, apiKey: kept } : rest;
  });
}
