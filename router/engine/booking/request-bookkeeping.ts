/**
 * The bookkeeping beside an attempt's effects as data (`apply-effects.ts`): each attempt counted against
 * free-tier budgets as it starts and once its tokens are known (the upstream's usage, else an estimate from
 * the request's length: `servedTokens` in `attempt-effects.ts`), with the provider's own rate-limit
 * headers as corrections; a failure booked against a breaker; and what a request books at its end:
 * deferred network errors, unless the offline rule holds, the models that refused a request another
 * model served, and how each model that could not serve is out, for the final answer.
 */
import type { SkipView, UsageView } from '../../api-types.js';
import type { ResolvedModel, ResolvedProvider } from '../../config/resolve-config.js';
import type { FailureKind, SkipReason } from '../../gate/failure-kinds.js';
import { openUntil } from '../../state/breaker.js';
import { holdsBudget } from '../../state/budget-standing.js';
import type { QuotaBook } from '../../state/quota-book.js';
import type { RateLimitHints } from '../../upstream/upstream-headers.js';
import { failsAsTrial } from './attempt-effects.js';
import { budgetId, keysBlock, pauseEndingAt } from './key-rotation.js';
import { isOfflineFailure } from './offline-rule.js';
import { outForGood, type ModelOut } from '../answer/models-out.js';
import type { RequestTrace, Role } from '../answer/request-trace.js';
import type { RouteContext } from '../routing/route-context.js';

/** The key an attempt counts against: its provider, its model and the key's fingerprint. */
export interface CountedKey {
  provider: ResolvedProvider;
  model: ResolvedModel;
  fingerprint: string;
}

/**
 * Counts an attempt's request on its key as it starts (before a concurrent one can overshoot); returns the
 * moment it was counted, or null for a model without limits (nothing counted).
 */
export function countAttemptStart(quotas: QuotaBook, on: CountedKey): number | null {
  const { provider, model, fingerprint } = on;
  if (!model.limited) return null;
  const id = budgetId(provider, model.key, fingerprint);
  return quotas.budgets.add(id, provider.dayTimeZone, model.limits, 1, 0);
}

/**
 * What a finished attempt counts: a served one's tokens (else null), the provider's rate-limit headers, and
 * when its start was counted if that count is to be taken back (its request never left the machine).
 */
export interface AttemptCount {
  tokens: UsageView | null;
  rateLimit: RateLimitHints | null;
  uncountAt: number | null;
}

/**
 * Counts a finished attempt's tokens and applies the provider's rate-limit headers, or takes back the
 * request an attempt that never reached the provider counted; for a model without limits only a spent
 * budget's hold.
 */
export function countAttemptEnd(quotas: QuotaBook, on: CountedKey, count: AttemptCount): void {
  const { provider, model, fingerprint } = on;
  const { tokens: served, rateLimit } = count;
  const { limits } = model;
  const zone = provider.dayTimeZone;
  if (!model.limited) {
    // A provider's headers are authoritative: its "nothing left" holds the key whether or not its limits
    // are known (a custom provider, a catalogue entry without numbers). Nothing else is counted (and no
    // counter named).
    if (rateLimit && holdsBudget(rateLimit))
      quotas.budgets.correct(budgetId(provider, model.key, fingerprint), zone, limits, rateLimit);
    return;
  }
  const id = budgetId(provider, model.key, fingerprint);
  if (count.uncountAt !== null) quotas.budgets.uncount(id, zone, limits, count.uncountAt);
  if (served !== null)
    quotas.budgets.add(id, zone, limits, 0, (served.promptTokens ?? 0) + (served.completionTokens ?? 0));
  if (rateLimit) quotas.budgets.correct(id, zone, limits, rateLimit);
}

/** A failure against `key`'s breaker: a failed trial (see `failsAsTrial`) or a plain failure. */
export function bookBreakerFailure(
  ctx: Pick<RouteContext, 'breakers' | 'clock'>,
  key: string,
  failure: { kind: FailureKind; role: Role },
): void {
  const { breakers } = ctx;
  // Only a trial's failure reads the breaker's cooldown (a read may settle an OPEN breaker).
  const until = failure.role === 'trial' ? openUntil(breakers.get(key)) : null;
  if (failsAsTrial(failure.role, until, ctx.clock())) breakers.recordTrialFailure(key, failure.kind);
  else breakers.recordFailure(key, failure.kind);
}

/**
 * Books the deferred network errors (only providers off this machine defer theirs) unless the offline rule
 * holds: every attempt off this machine failed that way, across two or more providers (`isOfflineFailure`).
 */
export function settleDeferredNetwork(ctx: RouteContext, trace: RequestTrace): void {
  if (trace.deferredNetwork.length === 0) return;
  if (isOfflineFailure(trace.attempts, trace.served !== null)) return;
  for (const { key, role } of trace.deferredNetwork)
    bookBreakerFailure(ctx, key, { kind: 'network_error', role });
}

/**
 * Books each model that refused (4xx, `invalid_request`) this request while another model served it: the
 * request was sound, so the refusal is the model's own way with requests like it, and the model ranks
 * behind the others for a while (`FitBook.learn`, `refusedServedAt`). So with one that ignored the tool
 * call the request forces (`tool_choice_ignored`), behind the others for requests that force one
 * (`ignoredForcedAt`). Nothing is booked when nothing served: a request every model refuses is the
 * client's, and blames none. A 413 is left out: without the words of a window or TPM refusal it is a body
 * limit (a proxy's), which says the request was large, not malformed.
 */
export function settleRefusals(ctx: RouteContext, trace: RequestTrace): void {
  const { served } = trace;
  if (served === null) return;
  for (const { kind, status, model } of trace.attempts) {
    if (model === served) continue;
    if (kind === 'invalid_request' && status !== 413) ctx.fits.learn(model, 'refusedServedAt');
    if (kind === 'tool_choice_ignored') ctx.fits.learn(model, 'ignoredForcedAt');
  }
}

/** How the quota book holds a model now: until when, and whether only a rate limit or a budget does. */
function quotaHold(ctx: RouteContext, modelKey: string): { until: number; rateLimited: boolean } | null {
  const model = ctx.resolved.models.get(modelKey);
  const provider = ctx.resolved.providers.get(model?.provider ?? '');
  const block = model && provider ? keysBlock(provider, model, ctx.quotas, new Set()) : null;
  if (!model || !provider || block === null || block.reason === 'auth_error') return null;
  // The key back first decides: a 402's or a location's pause ending first is no rate limit.
  const pause =
    block.reason === 'quota_paused' ? pauseEndingAt(provider, modelKey, ctx.quotas, block.until) : null;
  return { until: block.until, rateLimited: pause === null || pause.reason === 'rate_limit' };
}

/**
 * Skips that last until the user acts (a provider switched on, a key added or saved again, the set or the
 * config changed) or that the request itself causes (its size, its tools, its images): no wait ends them.
 */
const LASTING_SKIPS: ReadonlySet<SkipReason> = new Set<SkipReason>([
  'provider_disabled',
  'provider_unresolvable',
  'auth_error',
  'missing_key',
  'unknown_model',
  'model_vanished',
  'context_window',
  'over_tpm',
  'no_tool_support',
  'no_image_support',
]);

/**
 * A skipped model as the final answer weighs it: why it was skipped, whether only a rate limit or a
 * free-tier budget holds it, and when it is back (its cooldown's or pause's end, or when a key's minute
 * has room for it); out for good when its skip lasts, or when it could not take the request even once back
 * (`unfitOnceBack`: too large for it, say), whatever holds it now: no wait helps the request then.
 */
export function skipOut(ctx: RouteContext, skip: SkipView, unfitOnceBack: string | null): ModelOut {
  if (unfitOnceBack !== null) return outForGood(unfitOnceBack);
  if (LASTING_SKIPS.has(skip.reason)) return outForGood(skip.reason);
  const quota =
    skip.reason === 'quota_paused' || skip.reason === 'quota_budget' ? quotaHold(ctx, skip.model) : null;
  const rateLimited =
    skip.reason === 'quota_budget' || (skip.reason === 'quota_paused' && (quota?.rateLimited ?? true));
  const backAt =
    skip.until ??
    (skip.reason === 'circuit_open' ? openUntil(ctx.breakers.get(skip.model)) : (quota?.until ?? null));
  return { reason: skip.reason, rateLimited, backAt, forGood: false };
}

/**
 * A model whose attempt paused it (a 429, a 402, a refusal of the network's location), as the final
 * answer weighs it: only a 429's pause is a rate limit; it is back when its pause ends.
 */
export function pausedOut(ctx: RouteContext, modelKey: string, kind: FailureKind): ModelOut {
  const quota = quotaHold(ctx, modelKey);
  const rateLimited = kind === 'rate_limit' && (quota?.rateLimited ?? true);
  return { reason: kind, rateLimited, backAt: quota?.until ?? null, forGood: false };
}
