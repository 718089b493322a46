import type { KeyBudgetView } from '../../api-types.js';
import { hasLimits } from '../../catalogue/free-tier-limits.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { minuteUsed } from '../../state/budget-standing.js';
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

/** Which budgets {@link keyBudgetViews} reads. */
export interface KeyBudgetQuery {
  /** Model keys (`provider/model`); models without free-tier limits have no budget. */
  models: Iterable<string>;
  /** Only this key's budgets (by fingerprint); every key of each model's provider when left out. */
  fingerprint?: string;
}

/**
 * Each key's use of each free-tier budget of `query.models` now, read from the counters ranking checks,
 * most used first: one per model and key, or one per key for all its models when the provider counts per
 * key (Mistral, OpenRouter; `model` is then null). Keys by fingerprint only.
 */
export function keyBudgetViews(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  query: KeyBudgetQuery,
): KeyBudgetView[] {
  const views = new Map<string, KeyBudgetView>();
  for (const modelKey of query.models) {
    const model = resolved.models.get(modelKey);
    const provider = resolved.providers.get(model?.provider ?? '');
    if (model === undefined || provider === undefined || !hasLimits(model.limits)) continue;
    for (const { fingerprint } of provider.keys) {
      if (query.fingerprint !== undefined && fingerprint !== query.fingerprint) continue;
      const id = budgetId(provider, model.key, fingerprint);
      if (views.has(id)) continue;
      const counts = quotas.budgets.counts(id, provider.dayTimeZone);
      views.set(id, {
        provider: provider.id,
        key: fingerprint,
        model: provider.quotaScope === 'key' ? null : model.key,
        dayRequests: counts.dayRequests,
        dayTokens: counts.dayTokens,
        minuteRequests: minuteUsed(counts, 'requests'),
        minuteTokens: minuteUsed(counts, 'tokens'),
        limits: { ...model.limits },
      });
    }
  }
  return [...views.values()].sort((a, b) => usedShare(b) - usedShare(a));
}
