import type { SkipView } from '../api-types.js';
import type { ProviderKey, ResolvedProvider } from '../config/resolve-config.js';
import type { Classification } from '../gate/failure-classifier.js';
import { openUntil } from '../state/breaker.js';
import { keyId, keysBlock } from './key-rotation.js';
import { isOfflineFailure } from './offline-rule.js';
import type { RequestTrace, Role } from './request-trace.js';
import type { RouteContext } from './route-context.js';

/**
 * Whether a failure counts as a failed trial, reopening the breaker with a longer cooldown: the panic try
 * (made while OPEN, when nothing else could be), and a trial once the cooldown has run out (a HALF_OPEN
 * model's turn, or a dashboard Test or probe of it). A Test or probe of an OPEN model before its cooldown
 * ran out may close it early on success, but its failure does not lengthen the outage: it is counted as an
 * OPEN model's failure is (no re-trip, same cooldown).
 */
function failsAsTrial(ctx: RouteContext, key: string, role: Role): boolean {
  if (role === 'panic') return true;
  if (role !== 'trial') return false;
  const until = openUntil(ctx.breakers.get(key));
  return until === null || until <= ctx.clock();
}

/**
 * A served attempt: the breaker closes (an OPEN or HALF_OPEN one only for an attempt that went to it
 * tripped, on purpose: `sentToTrip` is the trip it went to, see `BreakerStore.recordSuccess`), pauses and
 * the auth block lift, stats count a success.
 */
export function bookSuccess(
  ctx: RouteContext,
  key: string,
  provider: ResolvedProvider,
  fingerprint: string,
  latencyMs: number,
  sentToTrip: number | null,
): void {
  ctx.breakers.recordSuccess(key, sentToTrip);
  ctx.quotas.clearOnSuccess(key, provider.id, fingerprint, provider.quotaAccount);
  ctx.modelStats.record(key, true, latencyMs);
}

/**
 * A failed attempt, booked as the classifier says: breaker damage (network errors deferred to the end of
 * the request, for the offline rule), quota pauses scoped to the model or the provider on the key used,
 * auth blocks of that key.
 */
export function bookFailure(
  ctx: RouteContext,
  trace: RequestTrace,
  key: string,
  provider: ResolvedProvider,
  apiKey: ProviderKey,
  role: Role,
  failure: Classification,
  latencyMs: number,
): void {
  const { fingerprint } = apiKey;
  trace.failures.push(failure);
  if (failure.kind === 'network_error') trace.deferredNetwork.push({ key, role });
  else if (failure.healthDamage && failsAsTrial(ctx, key, role))
    ctx.breakers.recordTrialFailure(key, failure.kind);
  else if (failure.healthDamage) ctx.breakers.recordFailure(key, failure.kind);
  if (failure.blame !== 'none' && failure.blame !== 'client') ctx.modelStats.record(key, false, latencyMs);
  if (failure.pause) {
    if (failure.pause.scope === 'provider' || provider.quotaScope === 'key') {
      const reason = failure.kind === 'payment_required' ? 'payment_required' : 'rate_limit';
      ctx.quotas.pauseProvider(
        provider.quotaAccount,
        fingerprint,
        failure.pause.ms,
        reason,
        failure.pause.authoritative,
      );
    } else {
      ctx.quotas.pauseModel(key, fingerprint, failure.pause.ms, failure.pause.authoritative);
    }
  }
  if (failure.blockProviderAuth) {
    ctx.quotas.blockAuth(provider.id, fingerprint);
    trace.refusedKeys.add(keyId(provider.id, fingerprint));
  }
}

/** Books deferred network errors unless every attempt failed that way across two or more providers. */
export function settleDeferredNetwork(ctx: RouteContext, trace: RequestTrace): void {
  if (trace.deferredNetwork.length === 0) return;
  if (isOfflineFailure(trace.attempts, trace.served !== null)) return;
  for (const { key, role } of trace.deferredNetwork) {
    if (failsAsTrial(ctx, key, role)) ctx.breakers.recordTrialFailure(key, 'network_error');
    else ctx.breakers.recordFailure(key, 'network_error');
  }
}

/** The soonest moment a skipped model becomes usable again (cooldown or pause end), for Retry-After. */
export function soonestRetryAt(ctx: RouteContext, skips: readonly SkipView[]): number | null {
  let soonest: number | null = null;
  for (const skip of skips) {
    const at = skipBackAt(ctx, skip);
    if (at !== null && (soonest === null || at < soonest)) soonest = at;
  }
  return soonest;
}

/** When one skipped model is back: its cooldown's or pause's end, or when a key's minute has room for it. */
function skipBackAt(ctx: RouteContext, skip: SkipView): number | null {
  if (skip.until !== undefined) return skip.until;
  if (skip.reason === 'circuit_open') return openUntil(ctx.breakers.get(skip.model));
  if (skip.reason !== 'quota_paused' && skip.reason !== 'quota_budget') return null;
  const model = ctx.resolved.models.get(skip.model);
  const provider = ctx.resolved.providers.get(model?.provider ?? '');
  const block = model && provider ? keysBlock(provider, model, ctx.quotas, new Set()) : null;
  return block !== null && block.reason !== 'auth_error' ? block.until : null;
}
