/**
 * The breaker of one model as pure transitions: `(record, input, now, settings) => record`. The store wraps
 * these with a clock, trial slots and persistence. Nothing here mutates its input.
 */
import type { BreakerStateName } from '../api-types.js';
import type { FailureKind } from '../gate/failure-kinds.js';

/** How a breaker trips and cools down (`router.breaker` in the config, which checks its ranges). */
export interface BreakerSettings {
  /** Consecutive failures that open it. */
  failureThreshold: number;
  /** The share of the threshold past which a CLOSED model is DEGRADED. */
  degradedRatio: number;
  initialCooldownMs: number;
  maxCooldownMs: number;
  /** How much longer each trip's cooldown is than the one before. */
  backoffMultiplier: number;
}

export interface BreakerRecord {
  state: BreakerStateName;
  consecutiveFailures: number;
  /** How often the breaker has opened; kept after a success so the next trip starts with a longer cooldown. */
  tripCount: number;
  cooldownMs: number;
  openedAt: number | null;
  lastFailureKind: FailureKind | null;
  lastFailureAt: number | null;
  updatedAt: number;
}

/** The cooldown never grows past this multiple of the initial one, whatever the multiplier. */
const MAX_COOLDOWN_FACTOR = 16;

/** A fresh CLOSED breaker with no history. */
export function initialBreaker(now: number, settings: BreakerSettings): BreakerRecord {
  return {
    state: 'CLOSED',
    consecutiveFailures: 0,
    tripCount: 0,
    cooldownMs: settings.initialCooldownMs,
    openedAt: null,
    lastFailureKind: null,
    lastFailureAt: null,
    updatedAt: now,
  };
}

/**
 * The cooldown of the `tripCount`-th trip: `initial × multiplier^(tripCount − 1)`, capped at 16× initial
 * and at `maxCooldownMs`. The multiplier is used as configured (1.5 stays 1.5).
 * @example cooldownFor(3, defaults) // 120_000 (30 s, 60 s, 120 s, 240 s, then 300 s)
 */
export function cooldownFor(tripCount: number, settings: BreakerSettings): number {
  const initial = settings.initialCooldownMs;
  const exponent = Math.max(0, tripCount - 1);
  const grown = initial * settings.backoffMultiplier ** exponent;
  return Math.round(Math.min(grown, initial * MAX_COOLDOWN_FACTOR, settings.maxCooldownMs));
}

/**
 * Consecutive failures that make a CLOSED breaker DEGRADED: `max(1, ceil(threshold × degradedRatio))`
 * (2 of 3 with the defaults). It only applies while it is below the threshold.
 */
export function degradedAt(settings: BreakerSettings): number {
  // 5 × 0.6 is 3.0000000000000004 in floating point; the epsilon keeps that at 3.
  return Math.max(1, Math.ceil(settings.failureThreshold * settings.degradedRatio - 1e-9));
}

/** True when the two records differ in anything but `updatedAt`. */
export function breakerChanged(a: BreakerRecord, b: BreakerRecord): boolean {
  return (
    a.state !== b.state ||
    a.consecutiveFailures !== b.consecutiveFailures ||
    a.tripCount !== b.tripCount ||
    a.cooldownMs !== b.cooldownMs ||
    a.openedAt !== b.openedAt ||
    a.lastFailureKind !== b.lastFailureKind ||
    a.lastFailureAt !== b.lastFailureAt
  );
}

/**
 * A served attempt (routed or probe): back to CLOSED with no failures and the initial cooldown. `tripCount`
 * and the last failure are kept as memory. Only a trial's success closes an OPEN or HALF_OPEN breaker: a
 * request that was already in flight when the breaker tripped proves nothing about the model now, so its
 * success leaves the breaker as it is. Returns `rec` itself when nothing changes.
 */
export function recordSuccess(
  rec: BreakerRecord,
  now: number,
  settings: BreakerSettings,
  trial: boolean,
): BreakerRecord {
  if (!trial && (rec.state === 'OPEN' || rec.state === 'HALF_OPEN')) return rec;
  // The usual case, a healthy model serving again: nothing to change, nothing to allocate.
  if (
    rec.state === 'CLOSED' &&
    rec.consecutiveFailures === 0 &&
    rec.cooldownMs === settings.initialCooldownMs &&
    rec.openedAt === null
  )
    return rec;
  const next: BreakerRecord = {
    ...rec,
    state: 'CLOSED',
    consecutiveFailures: 0,
    cooldownMs: settings.initialCooldownMs,
    openedAt: null,
    updatedAt: now,
  };
  return breakerChanged(rec, next) ? next : rec;
}

/**
 * A failure the classifier counts against the model. CLOSED/DEGRADED count up to DEGRADED and then OPEN;
 * any failure while HALF_OPEN reopens with an escalated cooldown. A failure while already OPEN (a request
 * that was in flight when it opened, or a panic try) is counted but neither re-trips nor extends the
 * cooldown, so concurrent failures cannot escalate it several steps at once.
 */
export function recordFailure(
  rec: BreakerRecord,
  kind: FailureKind,
  now: number,
  settings: BreakerSettings,
): BreakerRecord {
  const failures = rec.consecutiveFailures + 1;
  const base: BreakerRecord = {
    ...rec,
    consecutiveFailures: failures,
    lastFailureKind: kind,
    lastFailureAt: now,
    updatedAt: now,
  };
  if (rec.state === 'OPEN') return base;
  if (rec.state === 'HALF_OPEN' || failures >= settings.failureThreshold) return trip(base, now, settings);
  const degradeAt = degradedAt(settings);
  if (failures >= degradeAt && degradeAt < settings.failureThreshold) return { ...base, state: 'DEGRADED' };
  return base;
}

function trip(rec: BreakerRecord, now: number, settings: BreakerSettings): BreakerRecord {
  const tripCount = rec.tripCount + 1;
  return { ...rec, state: 'OPEN', openedAt: now, tripCount, cooldownMs: cooldownFor(tripCount, settings) };
}

/** Lazily turns an OPEN breaker whose cooldown has passed into HALF_OPEN; otherwise returns `rec` itself. */
export function settle(rec: BreakerRecord, now: number): BreakerRecord {
  const until = openUntil(rec);
  if (until === null || until > now) return rec;
  return { ...rec, state: 'HALF_OPEN', updatedAt: now };
}

/** When an OPEN breaker becomes HALF_OPEN; null in any other state. */
export function openUntil(rec: BreakerRecord): number | null {
  if (rec.state !== 'OPEN' || rec.openedAt === null) return null;
  return rec.openedAt + rec.cooldownMs;
}

/**
 * Whether the model should get one trial request at its own place in the order: HALF_OPEN, or DEGRADED
 * with no new failure for an initial cooldown (a trial is how a preferred model comes back).
 */
export function isTrialDue(rec: BreakerRecord, now: number, settings: BreakerSettings): boolean {
  const settled = settle(rec, now);
  if (settled.state === 'HALF_OPEN') return true;
  const at = degradedTrialAt(settled, settings);
  return at !== null && at <= now;
}

/**
 * When a DEGRADED model's trial is due ({@link isTrialDue}): an initial cooldown after its last failure, or
 * its last change when none is known; null in any other state.
 */
export function degradedTrialAt(rec: BreakerRecord, settings: BreakerSettings): number | null {
  if (rec.state !== 'DEGRADED') return null;
  return rec.lastFailureAt === null ? rec.updatedAt : rec.lastFailureAt + settings.initialCooldownMs;
}
