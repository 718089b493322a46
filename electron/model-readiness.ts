import { breakerChangesAt, breakerStanding } from '../router/index.js';
import type { BreakerStanding, ModelStateView } from '../router/index.js';

/**
 * How usable one model is right now, from the tray's point of view. It reads the router's own reason for
 * skipping the model (`blockedBy`, ranking's order of checks: a provider-level block hides any breaker
 * state, and a quota pause hides OPEN), then the breaker as the health verdict reads it.
 */
export type Readiness =
  | 'ready'
  | 'degraded'
  | 'half_open'
  | 'open'
  | 'quota_paused'
  | 'key_invalid'
  | 'no_key'
  | 'disabled'
  | 'unreachable';

/** Classifies one model at time `now`. */
export function readinessOf(model: ModelStateView, now: number): Readiness {
  switch (model.blockedBy) {
    case 'provider_disabled':
      return 'disabled';
    case 'missing_key':
      return 'no_key';
    case 'auth_error':
      return 'key_invalid';
    // Its provider is unknown, has no usable URL, or no longer lists the model: none of it a switch.
    case 'unknown_model':
    case 'model_vanished':
    case 'provider_unresolvable':
      return 'unreachable';
    case 'quota_paused':
    case 'quota_budget':
    case null:
      break;
  }
  if (model.quotaPausedUntil !== null && model.quotaPausedUntil > now) return 'quota_paused';
  return BREAKER_READINESS[breakerStanding(model, now)];
}

/** The tray's word for each breaker standing. */
const BREAKER_READINESS: Record<BreakerStanding, Readiness> = {
  closed: 'ready',
  degraded: 'degraded',
  trial: 'half_open',
  open: 'open',
};

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
    const times = [breakerChangesAt(model, now), model.quotaPausedUntil];
    for (const at of times) if (at !== null && at > now && (next === null || at < next)) next = at;
  }
  return next;
}
