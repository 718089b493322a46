import type {
  KeyStatus,
  KeyView,
  ProviderProbeView,
  ProvidersResponse,
  ProviderView,
} from '../../api-types.js';
import { FREE_TIER_LIMITS, NO_LIMITS } from '../../catalogue/free-tier-limits.js';
import type { ResolvedConfig, ResolvedProvider } from '../../config/resolve-config.js';
import { probeSchema } from '../../config/schema.js';
import type { DiscoveryBook } from '../../state/discovery-book.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { keyBudgetViews } from '../booking/key-budgets.js';

/** `invalid` only when every key was refused: one good key keeps the provider working. */
function keyStatus(provider: ResolvedProvider, keys: readonly KeyView[]): KeyStatus {
  if (keys.length > 0 && keys.every((key) => key.state === 'invalid')) return 'invalid';
  if (provider.keySource === 'config') return 'set';
  if (provider.keySource?.startsWith('env:')) return 'env';
  return provider.keyRequired ? 'missing' : 'not_required';
}

/**
 * Each key's state: refused (401/403); paused when the whole provider waits on it (its limit or credit) or
 * every model of the provider does; else usable, with how many models wait on it.
 */
function keyViews(resolved: ResolvedConfig, provider: ResolvedProvider, quotas: QuotaBook): KeyView[] {
  const account = provider.quotaAccount;
  const models = provider.modelIds.map((modelId) => `${provider.id}/${modelId}`);
  return provider.keys.map(({ fingerprint, source }) => {
    const shown = source.startsWith('env:') ? source.slice(4) : source;
    const budgets = keyBudgetViews(resolved, quotas, { models, fingerprint });
    if (quotas.isAuthBlocked(provider.id, fingerprint))
      return { fingerprint, source: shown, state: 'invalid', pausedUntil: null, pausedModels: 0, budgets };
    const ends = provider.modelIds
      .map((modelId) => quotas.pausedUntil(`${provider.id}/${modelId}`, account, fingerprint))
      .filter((until): until is number => until !== null);
    const whole = quotas.keyPausedUntil(account, fingerprint);
    const all = provider.modelIds.length > 0 && ends.length === provider.modelIds.length;
    const pausedUntil = whole ?? (all ? Math.min(...ends) : null);
    return {
      fingerprint,
      source: shown,
      state: pausedUntil === null ? 'usable' : 'paused',
      pausedUntil,
      pausedModels: ends.length,
      budgets,
    };
  });
}

/** The provider's probe settings in effect (off by default) and the probes it spent today. */
function probeView(resolved: ResolvedConfig, id: string, spentToday: number): ProviderProbeView {
  const { enabled, dailyBudget, idleIntervalMs } =
    resolved.config.providers[id]?.probe ?? probeSchema.parse({});
  return { enabled, dailyBudget, idleIntervalMs, spentToday };
}

/** The catalogue's limits for every model of the provider, and the config's override of them. */
function limitsView(resolved: ResolvedConfig, id: string): ProviderView['limits'] {
  return {
    published: { ...NO_LIMITS, ...FREE_TIER_LIMITS[id]?.all },
    override: { ...resolved.config.providers[id]?.limits },
  };
}

/** What `GET /api/providers` reads besides the config and the quota book. */
export interface ProvidersViewSources {
  discovery?: DiscoveryBook;
  /** Probes a provider spent in its current day. @default none */
  probesSpent?: (provider: string) => number;
}

/**
 * `GET /api/providers`: every provider with its key status, each key's state (by fingerprint) and its
 * models; never a key or a URL.
 */
export function buildProviders(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  sources: ProvidersViewSources = {},
): Omit<ProvidersResponse, 'revision'> {
  const { discovery, probesSpent = () => 0 } = sources;
  const providers = [...resolved.providers.values()].map((provider): ProviderView => {
    const keys = keyViews(resolved, provider, quotas);
    return {
      id: provider.id,
      name: provider.name,
      signupUrl: provider.signupUrl,
      keyStatus: keyStatus(provider, keys),
      keySource: provider.keySource?.startsWith('env:') ? provider.keySource.slice(4) : provider.keySource,
      enabled: provider.enabled,
      custom: provider.custom,
      unresolvable: provider.baseUrl === null,
      keys,
      discoveredAt: discovery?.all.get(provider.id)?.at ?? null,
      discoveredNew: provider.discoveredNew,
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
          vanished: model?.vanished === true,
        };
      }),
      probe: probeView(resolved, provider.id, probesSpent(provider.id)),
      limits: limitsView(resolved, provider.id),
    };
  });
  return { providers };
}
