import type { ProviderView } from '../../../../router/api-types.js';

export type ProviderFilter = 'all' | 'usable' | 'missing';

/**
 * Whether the provider has what it needs to be routed to (a working key, or none needed, and a complete
 * URL). The enabled switch is left out, so flipping it does not move the row.
 */
export function isUsable(p: ProviderView): boolean {
  return (
    !p.unresolvable && (p.keyStatus === 'set' || p.keyStatus === 'env' || p.keyStatus === 'not_required')
  );
}

/**
 * The providers to list: usable ones first (catalogue order kept within each group), then the rest, where a
 * key the provider refused comes first because it needs attention.
 */
export function listProviders(providers: readonly ProviderView[], filter: ProviderFilter): ProviderView[] {
  const rank = (p: ProviderView): number => (isUsable(p) ? 0 : p.keyStatus === 'invalid' ? 1 : 2);
  return providers
    .filter((p) => filter === 'all' || (filter === 'usable' ? isUsable(p) : !isUsable(p)))
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map(({ p }) => p);
}
