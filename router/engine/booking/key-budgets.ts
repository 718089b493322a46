import type { KeyBudgetView } from '../../api-types.js';
import { hasLimits } from '../../catalogue/free-tier-limits.js';
import type { ResolvedConfig, ResolvedProvider } from '../../config/resolve-config.js';
import { minuteUsed, type BudgetCounts } from '../../state/budget-standing.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { budgetId } from './key-rotation.js';

/** The largest share of any limit `view` has used, 0–1 (over 1 when a limit was passed). */
export function usedShare(view: KeyBudgetView): number {
  const pairs: [number, number | null][] = [
    [view.dayRequests, view.limits.rpd],
    [view.dayTokens, view.limits.tpd],
    [view.minuteRequests, view.limits.rpm],
    [view.minuteTokens, view.limits.tpm],
  ];
  return Math.max(0, ...pairs.map(([used, limit]) => (limit === null || limit === 0 ? 0 : used / limit)));
}

function countsView(counts: BudgetCounts): Omit<KeyBudgetView, 'model' | 'limits'> {
  return {
    dayRequests: counts.dayRequests,
    dayTokens: counts.dayTokens,
    minuteRequests: minuteUsed(counts, 'requests'),
    minuteTokens: minuteUsed(counts, 'tokens'),
  };
}

/**
 * One key's use of each free-tier budget of `provider` now, read from the counters ranking checks, most used
 * first: one per model with limits, or one for the whole key when the provider counts per key (Mistral,
 * OpenRouter). Empty for a provider without limits.
 */
export function keyBudgets(
  resolved: ResolvedConfig,
  provider: ResolvedProvider,
  quotas: QuotaBook,
  fingerprint: string,
): KeyBudgetView[] {
  const views: KeyBudgetView[] = [];
  const seen = new Set<string>();
  for (const modelId of provider.modelIds) {
    const model = resolved.models.get(`${provider.id}/${modelId}`);
    if (model === undefined || !hasLimits(model.limits)) continue;
    const id = budgetId(provider, model.key, fingerprint);
    if (seen.has(id)) continue;
    seen.add(id);
    views.push({
      model: provider.quotaScope === 'key' ? null : model.key,
      ...countsView(quotas.budgets.counts(id, provider.dayTimeZone)),
      limits: { ...model.limits },
    });
  }
  return views.sort((a, b) => usedShare(b) - usedShare(a));
}
