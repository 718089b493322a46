/**
 * The set a config without sets routes over: the models with a key first, the keyless providers' after,
 * each group best tier first, then by SWE score, then in catalogue order.
 */
import type { ResolvedModel, ResolvedProvider } from './resolve-config.js';

/** The catalogue's tiers, best first; a model without one (or with another) ranks after them all. */
const TIER_ORDER = ['S+', 'S', 'A+', 'A', 'A-', 'B+', 'B', 'C'];

function tierRank(tier: string | null): number {
  const rank = tier === null ? -1 : TIER_ORDER.indexOf(tier);
  return rank === -1 ? TIER_ORDER.length : rank;
}

/**
 * The set used when the config defines none: every routable model of every enabled provider with a key
 * (custom providers need none), best first, then the models of the catalogue's keyless providers, best
 * first, so a first run without any key routes at once and a key added later goes ahead of them.
 */
export function defaultSet(
  providers: ReadonlyMap<string, ResolvedProvider>,
  models: ReadonlyMap<string, ResolvedModel>,
  catalogueOrder: ReadonlyMap<string, number>,
): string[] {
  const order = (key: string, fallback: number): number =>
    catalogueOrder.get(key) ?? catalogueOrder.size + fallback;
  // 0: keyed (or custom), 1: keyless catalogue provider, null: not routable without a key.
  const group = (provider: ResolvedProvider | undefined): 0 | 1 | null => {
    if (provider === undefined || !provider.enabled || provider.baseUrl === null) return null;
    if (provider.apiKey !== null || provider.custom) return 0;
    return provider.keyRequired ? null : 1;
  };
  return [...models.values()]
    .map((model, index) => ({
      model,
      order: order(model.key, index),
      group: group(providers.get(model.provider)),
    }))
    .filter((entry): entry is typeof entry & { group: 0 | 1 } => entry.group !== null)
    .sort(
      (a, b) =>
        a.group - b.group ||
        tierRank(a.model.tier) - tierRank(b.model.tier) ||
        (b.model.sweScore ?? -1) - (a.model.sweScore ?? -1) ||
        a.order - b.order,
    )
    .map(({ model }) => model.key);
}
