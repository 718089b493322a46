import type { BreakerStateName } from '../../api-types.js';
import type { ProbeSettings } from '../../config/schema.js';

/** What the planner knows about one model of a provider with probes on. */
export interface ProbeCandidate {
  key: string;
  provider: string;
  settings: ProbeSettings;
  /** Settled breaker state: an OPEN model whose cooldown passed reads HALF_OPEN. */
  state: BreakerStateName;
  trialBusy: boolean;
  /** Its provider is on this machine (`ResolvedProvider.local`): its probes need no network. */
  local: boolean;
  /**
   * Paused, keyless, refused or disabled (a probe would only be refused), or its last probe, a moment ago,
   * never reached its provider.
   */
  blocked: boolean;
  /** The last time anything was learnt about it (served, failed or probed), or null. */
  lastActivityAt: number | null;
}

export type ProbeReason = 'trial' | 'idle';

/** What the plan is made at: the time, whether the machine is online, and each provider's budget left. */
export interface PlanMoment {
  now: number;
  online: boolean;
  /** The probes `provider` has left today, out of `limit`. */
  remaining: (provider: string, limit: number) => number;
}

/**
 * Whether a model may be probed now: one on this machine (`local`) always, as its server needs no network;
 * one off it only while the machine is online, since offline its probe could only fail, and spend budget,
 * for want of a network. Pure.
 */
export function probeAllowed(local: boolean, online: boolean): boolean {
  return local || online;
}

export interface PlannedProbe {
  key: string;
  provider: string;
  reason: ProbeReason;
}

/**
 * The probes due now: first every model whose trial is due (HALF_OPEN, its trial slot free), so a probe
 * rather than an agent's request brings it back; then models idle for their provider's `idleIntervalMs`.
 * Offline, only models on this machine (`probeAllowed`). Each provider's remaining daily budget caps its
 * probes. Pure.
 */
export function dueProbes(candidates: readonly ProbeCandidate[], at: PlanMoment): PlannedProbe[] {
  const { now, online, remaining } = at;
  const left = new Map<string, number>();
  const take = (candidate: ProbeCandidate, reason: ProbeReason, out: PlannedProbe[]): void => {
    const budget =
      left.get(candidate.provider) ?? remaining(candidate.provider, candidate.settings.dailyBudget);
    if (budget <= 0) return;
    left.set(candidate.provider, budget - 1);
    out.push({ key: candidate.key, provider: candidate.provider, reason });
  };
  const planned: PlannedProbe[] = [];
  const usable = candidates.filter(
    (candidate) => candidate.settings.enabled && !candidate.blocked && probeAllowed(candidate.local, online),
  );
  for (const candidate of usable) {
    if (candidate.state === 'HALF_OPEN' && !candidate.trialBusy) take(candidate, 'trial', planned);
  }
  for (const candidate of usable) {
    const interval = candidate.settings.idleIntervalMs;
    if (interval === null || (candidate.state !== 'CLOSED' && candidate.state !== 'DEGRADED')) continue;
    const since =
      candidate.lastActivityAt === null ? Number.POSITIVE_INFINITY : now - candidate.lastActivityAt;
    if (since >= interval) take(candidate, 'idle', planned);
  }
  return planned;
}
