import type { ConfigInput } from './schema.js';

/**
 * `raw` with `provider`'s key set to `apiKey` (an empty one removes it); everything else as it was. The
 * one edit `POST /api/providers/key` and `fcm-router set-key` make.
 */
export function withProviderKey(raw: ConfigInput, provider: string, apiKey: string): ConfigInput {
  const providers = { ...raw.providers };
  const { apiKey: _old, ...rest } = providers[provider] ?? {};
  providers[provider] = apiKey === '' ? rest : { ...rest, apiKey };
  return { ...raw, providers };
}
