import type { ProviderView } from '../../../router/api-types.js';
import { isUsable } from '../views/providers/provider-filter.js';

export interface Usability {
  /** Models of enabled providers the router can reach now (a key, or none needed). */
  usableModels: number;
  /** Enabled, usable providers that need no key. */
  keyless: string[];
  /** Providers waiting for a key, and their models. */
  needKey: number;
  needKeyModels: number;
}

/** How much of the catalogue can be routed to, and how much more a key would open up. */
export function usability(providers: readonly ProviderView[]): Usability {
  const result: Usability = { usableModels: 0, keyless: [], needKey: 0, needKeyModels: 0 };
  for (const p of providers) {
    if (!p.enabled) continue;
    if (isUsable(p)) {
      result.usableModels += p.models.length;
      if (p.keyStatus === 'not_required') result.keyless.push(p.name);
    } else if (p.keyStatus === 'missing' && !p.unresolvable) {
      result.needKey += 1;
      result.needKeyModels += p.models.length;
    }
  }
  return result;
}
