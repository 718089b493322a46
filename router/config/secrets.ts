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
 * A copy of `incoming` where each apiKey equal to {@link MASKED_SECRET} is the current key again. A
 * provider or an apiKey left out of `incoming` is removed, as sent; a mask with no current key behind it
 * is dropped rather than saved as a key.
 */
export function restoreMaskedSecrets(incoming: ConfigInput, current: ConfigInput): ConfigInput {
  return mapProviders(incoming, (id, provider) => {
    if (provider.apiKey !== MASKED_SECRET) return { ...provider };
    const { apiKey: _masked, ...rest } = provider;
    const kept = current.providers?.[id]?.apiKey;
    return kept !== undefined && kept !== MASKED_SECRET ? { ...rest, apiKey: kept } : rest;
  });
}
