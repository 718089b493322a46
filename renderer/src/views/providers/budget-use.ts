import type { KeyBudgetView } from '../../../../router/api-types.js';
import { formatTokens } from '../../lib/format.js';

/** One limit of a key's budget and how much of it is used. */
export interface BudgetMeter {
  /** `requests today`, `tokens this minute`… */
  label: string;
  used: number;
  limit: number;
  /** `12 / 1,000`, tokens shortened: `3.4k / 100k`. */
  text: string;
}

/**
 * The limits a budget has, each with its use: today's requests and tokens against the day's limits, the
 * last minute's against the minute's. A limit the provider does not set is left out.
 */
export function budgetMeters(budget: KeyBudgetView): BudgetMeter[] {
  const { limits } = budget;
  const rows: [string, number, number | null, (n: number) => string][] = [
    ['requests today', budget.dayRequests, limits.rpd, (n) => n.toLocaleString('en-US')],
    ['tokens today', budget.dayTokens, limits.tpd, formatTokens],
    ['requests this minute', budget.minuteRequests, limits.rpm, (n) => n.toLocaleString('en-US')],
    ['tokens this minute', budget.minuteTokens, limits.tpm, formatTokens],
  ];
  return rows.flatMap(([label, used, limit, format]) =>
    limit === null ? [] : [{ label, used, limit, text: `${format(used)} / ${format(limit)}` }],
  );
}

/** Whether any of the budget was used (today or in the last minute). */
export function budgetUsed(budget: KeyBudgetView): boolean {
  return budget.dayRequests + budget.dayTokens + budget.minuteRequests + budget.minuteTokens > 0;
}
