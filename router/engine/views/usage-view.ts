import type { ModelUsageToday, UsageDayView, UsageResponse } from '../../api-types.js';
import type { ResolvedConfig } from '../../config/resolve-config.js';
import { hasLimits } from '../../catalogue/free-tier-limits.js';
import { dayShare } from '../../state/budget-standing.js';
import type { QuotaBook } from '../../state/quota-book.js';
import { localDayKey } from '../../state/daily-counters.js';
import { USAGE_DAYS } from '../../state/usage-book.js';
import { budgetId, keysOf } from '../booking/key-rotation.js';

/** The share of a model's daily budget used today, over all its provider's keys; null without one. */
export function budgetShareToday(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  modelKey: string,
): number | null {
  const model = resolved.models.get(modelKey);
  const provider = resolved.providers.get(model?.provider ?? '');
  if (!model || !provider || !hasLimits(model.limits)) return null;
  const shares = keysOf(provider)
    .map((key) =>
      dayShare(
        model.limits,
        quotas.budgets.counts(budgetId(provider, modelKey, key.fingerprint), provider.dayTimeZone),
      ),
    )
    .filter((share): share is number => share !== null);
  return shares.length === 0 ? null : shares.reduce((sum, share) => sum + share, 0) / shares.length;
}

/** `GET /api/usage`: usage per day, model and key fingerprint, and today's per model with its budget share. */
export function buildUsage(
  resolved: ResolvedConfig,
  quotas: QuotaBook,
  now: number,
): Omit<UsageResponse, 'budgets'> {
  const days: UsageDayView[] = quotas.usage.list().map(({ day, entries }) => {
    const views = entries.map(({ model, key, tally }) => ({ model, key, ...tally }));
    const sum = (pick: (entry: (typeof views)[number]) => number): number =>
      views.reduce((total, entry) => total + pick(entry), 0);
    return {
      day,
      requests: sum((entry) => entry.requests),
      promptTokens: sum((entry) => entry.promptTokens),
      completionTokens: sum((entry) => entry.completionTokens),
      estimatedTokens: sum((entry) => entry.estimatedTokens),
      entries: views,
    };
  });
  const today = new Map<string, ModelUsageToday>();
  for (const entry of days.find((day) => day.day === localDayKey(now))?.entries ?? []) {
    const row = today.get(entry.model) ?? {
      model: entry.model,
      requests: 0,
      tokens: 0,
      estimatedTokens: 0,
      budgetShare: null,
    };
    row.requests += entry.requests;
    row.tokens += entry.promptTokens + entry.completionTokens;
    row.estimatedTokens += entry.estimatedTokens;
    today.set(entry.model, row);
  }
  // Models with a budget show its share even before they served today (counted attempts that failed).
  for (const model of resolved.models.values()) {
    const share = budgetShareToday(resolved, quotas, model.key);
    if (share === null) continue;
    const row = today.get(model.key);
    if (row) row.budgetShare = share;
    else if (share > 0)
      today.set(model.key, {
        model: model.key,
        requests: 0,
        tokens: 0,
        estimatedTokens: 0,
        budgetShare: share,
      });
  }
  return { keptDays: USAGE_DAYS, days, today: [...today.values()] };
}
