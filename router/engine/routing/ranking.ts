import type { SkipView } from '../../api-types.js';
import type { BreakerSettings } from '../../config/schema.js';
import type { FitSkipReason, SkipReason } from '../../gate/failure-kinds.js';
import { isTrialDue, openUntil, type BreakerRecord } from '../../state/breaker.js';

/** What ranking needs to know about one model, gathered by the engine from its stores. */
export interface CandidateFacts {
  /** Settled breaker (lazy OPEN → HALF_OPEN already applied). */
  breaker: BreakerRecord;
  trialBusy: boolean;
  /** Why the model cannot be tried regardless of its breaker, or null. */
  blocked: Exclude<
    SkipReason,
    'circuit_open' | 'half_open_busy' | 'trial_due' | 'already_tried' | FitSkipReason
  > | null;
  /** Every usable key is near a free-tier budget: the model goes behind the others. */
  nearBudget?: boolean;
}

export type CandidateRole = 'normal' | 'trial';

export interface RankedCandidate {
  key: string;
  role: CandidateRole;
  /** Ranked behind the CLOSED models (DEGRADED, or near a free-tier budget): a `fastest` order keeps it there. */
  lowered?: true;
}

export interface Ranking {
  /** Models to try, in order. */
  readonly order: readonly RankedCandidate[];
  readonly skips: readonly SkipView[];
  /**
   * The OPEN models, the one whose cooldown ends soonest first: when nothing else could be dispatched, the
   * first of them that can take the request gets the panic try.
   */
  readonly panic: readonly string[];
  /**
   * Nothing in this ranking depends on the time: every model is CLOSED, or skipped for a reason only a
   * state change lifts (config, a refused key). False when a cooldown, a trial timer or a quota pause
   * is involved, since those end by themselves.
   */
  readonly timeless: boolean;
}

const NONE_OPEN: readonly string[] = Object.freeze([]);

/** The OPEN models' keys, the soonest cooldown end first (a tie keeps the set's order: the sort is stable). */
function byCooldownEnd(open: { key: string; until: number }[]): string[] {
  return open.sort((a, b) => a.until - b.until).map((entry) => entry.key);
}

/**
 * Orders a set for one request. The set's order is the user's priority: CLOSED models keep their place; a
 * model whose trial is due (HALF_OPEN, or DEGRADED with no new failure for a cooldown) takes the request at
 * its place when its one trial slot is free; other DEGRADED models, and models near a free-tier budget, go
 * behind every CLOSED one (`lowered`); OPEN, paused, keyless and blocked models are skipped with a reason.
 * `set` holds each key once (resolved sets are deduplicated). Pure.
 */
export function rankCandidates(
  set: readonly string[],
  facts: (key: string) => CandidateFacts,
  now: number,
  settings: BreakerSettings,
): Ranking {
  const order: RankedCandidate[] = [];
  const degraded: RankedCandidate[] = [];
  const skips: SkipView[] = [];
  let open: { key: string; until: number }[] | null = null;
  let timeless = true;

  for (const key of set) {
    const { breaker, trialBusy, blocked, nearBudget } = facts(key);
    if (blocked) {
      if (blocked === 'quota_paused' || blocked === 'quota_budget') timeless = false;
      skips.push({ model: key, reason: blocked });
      continue;
    }
    if (breaker.state !== 'CLOSED') timeless = false;
    switch (breaker.state) {
      case 'CLOSED':
        // Near a budget: behind the others, as a DEGRADED model (a window's end lifts it).
        if (nearBudget === true) timeless = false;
        if (nearBudget === true) degraded.push({ key, role: 'normal', lowered: true });
        else order.push({ key, role: 'normal' });
        break;
      case 'OPEN': {
        skips.push({ model: key, reason: 'circuit_open' });
        (open ??= []).push({ key, until: openUntil(breaker) ?? Number.POSITIVE_INFINITY });
        break;
      }
      case 'HALF_OPEN':
        if (trialBusy) skips.push({ model: key, reason: 'half_open_busy' });
        else order.push({ key, role: 'trial' });
        break;
      case 'DEGRADED':
        if (isTrialDue(breaker, now, settings) && !trialBusy) order.push({ key, role: 'trial' });
        else degraded.push({ key, role: 'normal', lowered: true });
        break;
    }
  }
  return {
    order: degraded.length === 0 ? order : order.concat(degraded),
    skips,
    panic: open === null ? NONE_OPEN : byCooldownEnd(open),
    timeless,
  };
}
