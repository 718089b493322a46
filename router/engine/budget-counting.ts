/**
 * Counting attempts against free-tier budgets: each attempt's request as it starts, its tokens once known
 * (the upstream's usage, else an estimate from the request's length), and the provider's own rate-limit
 * headers as corrections; and each served request's tokens in the day's usage.
 */
import type { UsageView } from '../api-types.js';
import { hasLimits } from '../catalogue/free-tier-limits.js';
import type { ResolvedModel, ResolvedProvider } from '../config/resolve-config.js';
import { holdsBudget } from '../state/budget-standing.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { AttemptVerdict } from './attempt.js';
import { budgetId } from './key-rotation.js';

/**
 * A served attempt's tokens: the upstream's usage, else the request's estimated input (`request-size.ts`,
 * marked so). Computed once per served attempt: the budget count and the day's usage both take this figure.
 */
export function servedTokens(reported: UsageView | null, estimatedInput: number): UsageView {
  return reported ?? { promptTokens: estimatedInput, completionTokens: null, estimated: true };
}

/** Counts an attempt's request on its key as it starts (before a concurrent one can overshoot). */
export function countAttemptStart(
  quotas: QuotaBook,
  provider: ResolvedProvider,
  model: ResolvedModel,
  fingerprint: string,
): void {
  if (!hasLimits(model.limits)) return;
  quotas.budgets.add(budgetId(provider, model.key, fingerprint), provider.dayTimeZone, model.limits, 1, 0);
}

/**
 * Counts a finished attempt's tokens (`served`: a served one's, else null) and applies the provider's
 * rate-limit headers; for a model without limits only a spent budget's hold.
 */
export function countAttemptEnd(
  quotas: QuotaBook,
  provider: ResolvedProvider,
  model: ResolvedModel,
  fingerprint: string,
  served: UsageView | null,
  rateLimit: AttemptVerdict['rateLimit'],
): void {
  const { limits } = model;
  const id = budgetId(provider, model.key, fingerprint);
  const zone = provider.dayTimeZone;
  if (!hasLimits(limits)) {
    // A provider's headers are authoritative: its "nothing left" holds the key whether or not its limits
    // are known (a custom provider, a catalogue entry without numbers). Nothing else is counted.
    if (rateLimit && holdsBudget(rateLimit)) quotas.budgets.correct(id, zone, limits, rateLimit);
    return;
  }
  if (served !== null)
    quotas.budgets.add(id, zone, limits, 0, (served.promptTokens ?? 0) + (served.completionTokens ?? 0));
  if (rateLimit) quotas.budgets.correct(id, zone, limits, rateLimit);
}
