/**
 * Counting attempts against free-tier budgets: each attempt's request as it starts, its tokens once known
 * (the upstream's usage, else an estimate from the request's length), and the provider's own rate-limit
 * headers as corrections; and each served request's tokens in the day's usage.
 */
import type { UsageView } from '../api-types.js';
import { hasLimits } from '../catalogue/free-tier-limits.js';
import type { ResolvedModel, ResolvedProvider } from '../config/resolve-config.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { AttemptVerdict } from './attempt.js';
import { budgetId } from './key-rotation.js';

/** Characters per token in a rough estimate (English and code average about four). */
const CHARS_PER_TOKEN = 4;

/** A rough token count of a chat body's messages, for when the upstream reports no usage. */
export function estimateTokens(body: Record<string, unknown>): number {
  const text = JSON.stringify(body.messages ?? body) ?? '';
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * A served request's usage as the upstream reported it, else estimated from the request's length (and
 * marked so); added to the day's usage of the model and key.
 */
export function servedUsage(
  quotas: QuotaBook,
  modelKey: string,
  fingerprint: string,
  reported: UsageView | null,
  body: Record<string, unknown>,
): UsageView {
  const usage = reported ?? { promptTokens: estimateTokens(body), completionTokens: null, estimated: true };
  quotas.usage.record(modelKey, fingerprint, usage);
  return usage;
}

/** Counts an attempt's request on its key as it starts (before a concurrent one can overshoot). */
export function countAttemptStart(
  quotas: QuotaBook,
  provider: ResolvedProvider,
  model: ResolvedModel,
  fingerprint: string,
): void {
  if (!hasLimits(model.limits)) return;
  quotas.budgets.add(budgetId(provider, model.key, fingerprint), model.limits, 1, 0);
}

/** Counts a finished attempt's tokens (served ones only) and applies the provider's rate-limit headers. */
export function countAttemptEnd(
  quotas: QuotaBook,
  provider: ResolvedProvider,
  model: ResolvedModel,
  fingerprint: string,
  verdict: AttemptVerdict,
  body: Record<string, unknown>,
): void {
  const { limits } = model;
  if (!hasLimits(limits)) return;
  const id = budgetId(provider, model.key, fingerprint);
  if (verdict.type === 'served') {
    const { usage } = verdict;
    const reported = (usage?.promptTokens ?? 0) + (usage?.completionTokens ?? 0);
    quotas.budgets.add(id, limits, 0, reported > 0 ? reported : estimateTokens(body));
  }
  if (verdict.rateLimit) quotas.budgets.correct(id, limits, verdict.rateLimit);
}
