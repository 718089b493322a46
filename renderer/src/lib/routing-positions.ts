import type { ModelStateView } from '../../../router/api-types.js';

/** Whether the next request could be sent to the model at `now` (DEGRADED and trials count). */
export function isRoutableNow(model: ModelStateView, now: number): boolean {
  const pauseOver =
    (model.blockedBy === 'quota_paused' || model.blockedBy === 'quota_budget') &&
    (model.quotaPausedUntil ?? 0) <= now;
  if (model.blockedBy !== null && !pauseOver) return false;
  return model.state !== 'OPEN' || (model.openUntil !== null && model.openUntil <= now);
}

/**
 * Each active-set model's place in the order the next request tries them (1 = first), or null when it
 * would be skipped. `models` is the router's snapshot, which lists the active set in routing order.
 */
export function routingPositions(models: readonly ModelStateView[], now: number): Map<string, number | null> {
  const positions = new Map<string, number | null>();
  let next = 1;
  for (const model of models) {
    if (!model.inActiveSet) continue;
    positions.set(model.key, isRoutableNow(model, now) ? next++ : null);
  }
  return positions;
}

/** `1st`, `2nd`, `3rd`, `11th`… */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}
