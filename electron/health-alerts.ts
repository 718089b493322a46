import type { FailureKind, StateResponse } from '../router/index.js';
import { isRoutable, readinessOf } from './model-readiness.js';

/** Something worth a desktop notification, found by comparing two snapshots. */
export type HealthAlert =
  | { kind: 'model-open'; model: string; cooldownMs: number; lastFailureKind: FailureKind | null }
  | { kind: 'key-invalid'; provider: string }
  | { kind: 'nothing-routable'; activeSet: string };

/**
 * The alerts between two snapshots of the router: active-set models that tripped OPEN (again), providers
 * whose key was newly refused, and the moment the last routable model went away. The first snapshot sets
 * the baseline and alerts nothing: a red icon at start speaks for itself. Paused routing alerts nothing.
 */
export function detectAlerts(prev: StateResponse | null, next: StateResponse, now: number): HealthAlert[] {
  if (!prev || next.paused) return [];
  const before = new Map(prev.models.map((m) => [m.key, m]));
  const alerts: HealthAlert[] = [];
  const refusedProviders = new Set<string>();
  for (const model of next.models) {
    const old = before.get(model.key);
    if (!old) continue;
    if (model.authBlocked && !old.authBlocked && !refusedProviders.has(model.provider)) {
      refusedProviders.add(model.provider);
      alerts.push({ kind: 'key-invalid', provider: model.provider });
    }
    const tripped = model.state === 'OPEN' && (old.state !== 'OPEN' || model.tripCount > old.tripCount);
    if (tripped && model.inActiveSet) {
      alerts.push({
        kind: 'model-open',
        model: model.key,
        cooldownMs: model.cooldownMs,
        lastFailureKind: model.lastFailureKind,
      });
    }
  }
  if (!prev.paused && routableCount(prev, now) > 0 && routableCount(next, now) === 0) {
    alerts.push({ kind: 'nothing-routable', activeSet: next.activeSet });
  }
  return alerts;
}

function routableCount(state: StateResponse, now: number): number {
  return state.models.filter((m) => m.inActiveSet && isRoutable(readinessOf(m, now))).length;
}
