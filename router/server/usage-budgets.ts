/**
 * The day budgets `GET /api/usage` shows per key: the quota book's counts (the ones ranking checks) against
 * each model's day limits, one row per budget (a provider counting per key has one per key, not one per model).
 */
import type { KeyBudgetView, UsageResponse } from '../api-types.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { keyBudgetViews } from '../engine/booking/key-budgets.js';
import type { QuotaBook } from '../state/quota-book.js';

/** The share of its tightest day limit a budget has used, 0..1 and more. */
export function dayShare(row: KeyBudgetView): number {
  const { rpd, tpd } = row.limits;
  return Math.max(rpd === null ? 0 : row.dayRequests / rpd, tpd === null ? 0 : row.dayTokens / tpd);
}

/** The models whose budgets are shown: those of the sets, and any used today (a pinned one, say). */
function shownModels(resolved: ResolvedConfig, usage: UsageResponse['today']): Set<string> {
  const keys = new Set(Object.values(resolved.sets).flat());
  for (const row of usage) keys.add(row.model);
  return keys;
}

/** Each key's day budgets of the enabled providers, most used first; budgets without a day limit left out. */
export function usageBudgets(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  today: UsageResponse['today'],
): KeyBudgetView[] {
  return keyBudgetViews(resolved, quotas, { models: shownModels(resolved, today) })
    .filter((row) => resolved.providers.get(row.provider)?.enabled === true)
    .filter((row) => row.limits.rpd !== null || row.limits.tpd !== null)
    .sort((a, b) => dayShare(b) - dayShare(a));
}
