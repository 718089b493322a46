/**
 * Counting attempts against free-tier budgets: each attempt's request as it starts, its tokens once known
 * (the upstream's usage, else an estimate from the request's length: `servedTokens` in
 * `attempt-effects.ts`), and the provider's own rate-limit headers as corrections.
 */
import type { UsageView } from '../../api-types.js';
import { hasLimits } from '../../catalogue/free-tier-limits.js';
import type { ResolvedModel, ResolvedProvider } from '../../config/resolve-config.js';
import { holdsBudget } from '../../state/budget-standing.js';
import type { QuotaBook } from '../../state/quota-book.js';
import type { RateLimitHints } from '../../upstream/upstream-headers.js';
import { budgetId } from './key-rotation.js';

/** The key an attempt counts against: its provider, its model and the key's fingerprint. */
export interface CountedKey {
  provider: ResolvedProvider;
  model: ResolvedModel;
  fingerprint: string;
}

/** Counts an attempt's request on its key as it starts (before a concurrent one can overshoot). */
export function countAttemptStart(quotas: QuotaBook, on: CountedKey): void {
  const { provider, model, fingerprint } = on;
  if (!hasLimits(model.limits)) return;
  quotas.budgets.add(budgetId(provider, model.key, fingerprint), provider.dayTimeZone, model.limits, 1, 0);
}

/** What a finished attempt counts: a served one's tokens (else null), and the provider's rate-limit headers. */
export interface AttemptCount {
  tokens: UsageView | null;
  rateLimit: RateLimitHints | null;
}

/**
 * Counts a finished attempt's tokens and applies the provider's rate-limit headers; for a model without
 * limits only a spent budget's hold.
 */
export function countAttemptEnd(quotas: QuotaBook, on: CountedKey, count: AttemptCount): void {
  const { provider, model, fingerprint } = on;
  const { tokens: served, rateLimit } = count;
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
