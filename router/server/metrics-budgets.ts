import { hasLimits, type BudgetLimits } from '../catalogue/free-tier-limits.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { budgetId } from '../engine/booking/key-rotation.js';
import { minuteUsed } from '../state/budget-standing.js';
import type { QuotaBook } from '../state/quota-book.js';

/** One key's use of one model's free-tier budget now; the key by fingerprint only. */
export interface KeyBudgetUse {
  provider: string;
  model: string;
  /** The key's fingerprint (never the key). */
  key: string;
  dayRequests: number;
  dayTokens: number;
  minuteRequests: number;
  minuteTokens: number;
  limits: BudgetLimits;
}

/**
 * Every key's budget use for each of `modelKeys` with free-tier limits of an enabled provider, read from
 * the quota book's counters (the same ones ranking checks). Keyless providers have no per-key budget.
 */
export function keyBudgetUse(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  modelKeys: Iterable<string>,
): KeyBudgetUse[] {
  const rows: KeyBudgetUse[] = [];
  for (const modelKey of modelKeys) {
    const model = resolved.models.get(modelKey);
    const provider = resolved.providers.get(model?.provider ?? '');
    if (!model || !provider?.enabled || !hasLimits(model.limits)) continue;
    for (const { fingerprint } of provider.keys) {
      const counts = quotas.budgets.counts(budgetId(provider, model.key, fingerprint), provider.dayTimeZone);
      rows.push({
        provider: provider.id,
        model: model.key,
        key: fingerprint,
        dayRequests: counts.dayRequests,
        dayTokens: counts.dayTokens,
        minuteRequests: minuteUsed(counts, 'requests'),
        minuteTokens: minuteUsed(counts, 'tokens'),
        limits: model.limits,
      });
    }
  }
  return rows;
}
