import type { KeyStatus, ProvidersResponse } from '../api-types.js';
import type { ResolvedConfig, ResolvedProvider } from '../config/resolve-config.js';
import type { QuotaBook } from '../state/quota-book.js';
import { providerFingerprint } from './candidate-facts.js';

function keyStatus(provider: ResolvedProvider, quotas: QuotaBook): KeyStatus {
  if (provider.apiKey && quotas.isAuthBlocked(provider.id, providerFingerprint(provider))) return 'invalid';
  if (provider.keySource === 'config') return 'set';
  if (provider.keySource?.startsWith('env:')) return 'env';
  return provider.keyRequired ? 'missing' : 'not_required';
}

/** `GET /api/providers`: every provider with its key status and models; never a key or a URL. */
export function buildProviders(resolved: ResolvedConfig, quotas: QuotaBook): ProvidersResponse {
  const providers = [...resolved.providers.values()].map((provider) => ({
    id: provider.id,
    name: provider.name,
    signupUrl: provider.signupUrl,
    keyStatus: keyStatus(provider, quotas),
    keySource: provider.keySource?.startsWith('env:') ? provider.keySource.slice(4) : provider.keySource,
    enabled: provider.enabled,
    custom: provider.custom,
    unresolvable: provider.baseUrl === null,
    models: provider.modelIds.map((modelId) => {
      const key = `${provider.id}/${modelId}`;
      const model = resolved.models.get(key);
      return {
        key,
        modelId,
        label: model?.label ?? null,
        tier: model?.tier ?? null,
        sweScore: model?.sweScore ?? null,
        context: model?.context ?? null,
      };
    }),
  }));
  return { providers };
}
