/**
 * What a request books at its end, after every attempt's own effects (`apply-effects.ts`): deferred network
 * errors, unless the offline rule holds; and when a skipped model is back, for Retry-After.
 */
import type { SkipView } from '../../api-types.js';
import { openUntil } from '../../state/breaker.js';
import { bookBreakerFailure } from './apply-effects.js';
import { keysBlock } from './key-rotation.js';
import { isOfflineFailure } from './offline-rule.js';
import type { RequestTrace } from '../answer/request-trace.js';
import type { RouteContext } from '../routing/route-context.js';

/** Books deferred network errors unless every attempt failed that way across two or more providers. */
export function settleDeferredNetwork(ctx: RouteContext, trace: RequestTrace): void {
  if (trace.deferredNetwork.length === 0) return;
  if (isOfflineFailure(trace.attempts, trace.served !== null)) return;
  for (const { key, role } of trace.deferredNetwork)
    bookBreakerFailure(ctx, key, { kind: 'network_error', role });
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
