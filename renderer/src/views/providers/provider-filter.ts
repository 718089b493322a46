import type { ProviderView } from '../../../../router/api-types.js';

export type ProviderFilter = 'all' | 'usable' | 'missing';

/** Whether the provider has what it needs to be routed to: a working key (or none needed) and a complete URL. */
export function isReady(p: ProviderView): boolean {
  return (
    !p.unresolvable && (p.keyStatus === 'set' || p.keyStatus === 'env' || p.keyStatus === 'not_required')
  );
}

/** Whether the router routes to the provider: ready, and switched on (as the Overview and Models count). */
export function isUsable(p: ProviderView): boolean {
  return p.enabled && isReady(p);
}

/**
 * The providers to list: ready ones first (catalogue order kept within each group), then the rest, where a
 * key the provider refused comes first because it needs attention. The order leaves the enabled switch out,
 * so flipping it does not move the row; "usable" lists the ready providers that are switched on, "missing"
 * the ones that are not ready (a provider switched off with a working key is under "all" only).
 */
export function listProviders(providers: readonly ProviderView[], filter: ProviderFilter): ProviderView[] {
  const rank = (p: ProviderView): number => (isReady(p) ? 0 : p.keyStatus === 'invalid' ? 1 : 2);
  const shown = (p: ProviderView): boolean =>
    filter === 'all' || (filter === 'usable' ? isUsable(p) : !isReady(p));
  return providers
    .filter(shown)
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map(({ p }) => p);
}
