import type { ModelStateView } from '../router/index.js';

/**
 * How usable one model is right now, from the tray's point of view. The order of the checks follows the
 * router's ranking: a provider-level block hides any breaker state, and a quota pause hides OPEN.
 */
export type Readiness =
  'ready' | 'degraded' | 'half_open' | 'open' | 'quota_paused' | 'key_invalid' | 'no_key' | 'disabled';

/** Classifies one model at time `now`. */
export function readinessOf(model: ModelStateView, now: number): Readiness {
  if (!model.providerEnabled) return 'disabled';
  if (model.missingKey) return 'no_key';
  if (model.authBlocked) return 'key_invalid';
  if (model.quotaPausedUntil !== null && model.quotaPausedUntil > now) return 'quota_paused';
  if (model.state === 'OPEN') {
    // A cooldown that has run out means the next request will try it (the router turns it HALF_OPEN).
    return model.openUntil !== null && model.openUntil <= now ? 'half_open' : 'open';
  }
  if (model.state === 'HALF_OPEN') return 'half_open';
  if (model.state === 'DEGRADED') return 'degraded';
  return 'ready';
}

/** Whether the router would send a request to a model in this condition (DEGRADED and trials count). */
export function isRoutable(readiness: Readiness): boolean {
  return readiness === 'ready' || readiness === 'degraded' || readiness === 'half_open';
}

/**
 * The next moment what the tray shows of some model changes by the passage of time alone (a cooldown or a
 * quota pause ends, a DEGRADED model's trial comes due and takes its place in the order), so the tray can
 * refresh then instead of polling: the router emits no event for any of these. Null when nothing is waiting.
 */
export function nextTimedChange(models: readonly ModelStateView[], now: number): number | null {
  let next: number | null = null;
  for (const model of models) {
    const times = [
      model.state === 'OPEN' ? model.openUntil : null,
      model.state === 'DEGRADED' ? model.trialDueAt : null,
      model.quotaPausedUntil,
    ];
    for (const at of times) if (at !== null && at > now && (next === null || at < next)) next = at;
  }
  return next;
}
