import type { ModelUsageToday } from '../../../../router/api-types.js';
import { useUsage } from '../../api/queries.js';
import { formatPercent, formatTokens } from '../../lib/format.js';

/** What a model used today (the local day) in words: tokens (how many estimated) and the share of its daily free budget. */
export function usageWords(row: ModelUsageToday | undefined): string {
  if (row === undefined) return 'no tokens today';
  const parts = [`${formatTokens(row.tokens)} tokens today`];
  if (row.estimatedTokens > 0) parts[0] += ` (${formatTokens(row.estimatedTokens)} estimated)`;
  if (row.budgetShare !== null) parts.push(`${formatPercent(row.budgetShare)} of the daily free budget`);
  return parts.join(' · ');
}

/** One model's usage today, from `GET /api/usage`. */
export function ModelUsage({ modelKey }: { modelKey: string }) {
  const { data } = useUsage();
  const row = data?.today.find((entry) => entry.model === modelKey);
  return <li className="legend-plain model-usage">{usageWords(row)}</li>;
}
