/**
 * The day budgets `GET /api/usage` shows per key: the quota book's counts (the ones ranking checks) against
 * each model's day limits, one row per budget (a provider counting per key has one per key, not one per model).
 */
import type { KeyDayBudgetView, UsageResponse } from '../api-types.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { QuotaBook } from '../state/quota-book.js';
import { keyBudgetUse } from './metrics-budgets.js';

/** The share of its tightest day limit a budget has used, 0..1 and more. */
export function dayShare(row: KeyDayBudgetView): number {
  const shares = [
    row.rpd === null ? 0 : row.dayRequests / row.rpd,
    row.tpd === null ? 0 : row.dayTokens / row.tpd,
  ];
  return Math.max(...shares);
}

/** The models whose budgets are shown: those of the sets, and any used today (a pinned one, say). */
function shownModels(resolved: ResolvedConfig, usage: UsageResponse['today']): Set<string> {
  const keys = new Set(Object.values(resolved.sets).flat());
  for (const row of usage) keys.add(row.model);
  return keys;
}

/** Each key's day budgets, most used first; budgets without a day limit left out. */
export function usageBudgets(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  today: UsageResponse['today'],
): KeyDayBudgetView[] {
  const rows = new Map<string, KeyDayBudgetView>();
  for (const use of keyBudgetUse(resolved, quotas, shownModels(resolved, today))) {
    if (use.limits.rpd === null && use.limits.tpd === null) continue;
    const perKey = resolved.providers.get(use.provider)?.quotaScope === 'key';
    const id = perKey ? `${use.provider} ${use.key}` : `${use.model} ${use.key}`;
    if (rows.has(id)) continue;
    rows.set(id, {
      provider: use.provider,
      key: use.key,
      model: perKey ? null : use.model,
      dayRequests: use.dayRequests,
      dayTokens: use.dayTokens,
      rpd: use.limits.rpd,
      tpd: use.limits.tpd,
    });
  }
  return [...rows.values()].sort((a, b) => dayShare(b) - dayShare(a));
}
