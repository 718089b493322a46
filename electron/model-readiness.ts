import { breakerChangesAt, modelStanding } from '../router/index.js';
import type { ModelStanding, ModelStateView } from '../router/index.js';

/**
 * How usable one model is right now, from the tray's point of view: the health verdict's standing of it
 * (`modelStanding`), so the tray's words and the verdict never read a model differently.
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

/** Classifies one model at time `now`: the router's own standing of it, in the tray's words. */
export function readinessOf(model: ModelStateView, now: number): Readiness {
  return READINESS[modelStanding(model, now)];
}

/** The tray's word for each standing. */
const READINESS: Record<ModelStanding, Readiness> = {
  closed: 'ready',
  degraded: 'degraded',
  trial: 'half_open',
  open: 'open',
  quota_paused: 'quota_paused',
  missing_key: 'no_key',
  key_refused: 'key_invalid',
  off: 'disabled',
  unreachable: 'unreachable',
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
