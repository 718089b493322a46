import type { ModelStateView } from '../../../router/api-types.js';
import { formatHourMinute } from './format.js';
import { FAILURE_HINTS, SKIP_HINTS, failureWords } from './labels.js';

/** What a row says of a model the offline rule spared: its network errors were not held against it. */
export const SPARED_WORDS =
  'unreachable, not held against the model (no provider answered: check the connection)';

/**
 * Why a model of the active set is not taking requests normally, in plain words, or null when it is. What
 * keeps it out beside its breaker (no key, a refused key, a quota pause) comes first, as ranking checks it;
 * a CLOSED model that the newest requests could not reach (`spared` by the offline rule) says so, and
 * one routed behind the others for refusing a request another model served, or for ignoring a forced tool
 * call another model made, says that.
 */
export function outReason(model: ModelStateView, now: number, spared = false): string | null {
  if (
    (model.blockedBy === 'quota_paused' || model.blockedBy === 'quota_budget') &&
    (model.quotaPausedUntil ?? 0) <= now
  ) {
    // The pause has ended since the snapshot: the breaker decides again.
  } else if (model.blockedBy !== null) {
    return SKIP_HINTS[model.blockedBy];
  }
  const last = model.lastFailureKind
    ? ` on ${model.lastFailureKind} — ${failureWords(model.lastFailureKind)}`
    : '';
  const failures = `${model.consecutiveFailures} failure${model.consecutiveFailures === 1 ? '' : 's'} since the last success`;
  switch (model.state) {
    case 'CLOSED':
      return spared ? SPARED_WORDS : (refusalWords(model) ?? ignoredForcedWords(model));
    case 'DEGRADED':
      // Ranking gives a DEGRADED model its place back, as a trial, once no failure came for a cooldown.
      return model.trialDueAt !== null && model.trialDueAt <= now
        ? `${failures}${last}: no new failure for a cooldown, so the next request is its trial`
        : `${failures}${last}: routed behind healthy models`;
    case 'OPEN':
      return model.openUntil !== null && model.openUntil <= now
        ? `cooldown over: the next request is its trial`
        : `tripped${model.tripCount > 1 ? ` (trip ${model.tripCount})` : ''}${last}`;
    case 'HALF_OPEN':
      return 'on trial: the next request closes or reopens it';
  }
}

/** The hint behind a failure kind, for a tooltip. */
export function failureHint(model: ModelStateView): string | undefined {
  return model.lastFailureKind ? FAILURE_HINTS[model.lastFailureKind] : undefined;
}

/**
 * Why a model ranks behind the others though it is healthy: it refused (4xx) a request another model then
 * served, so the router asks the others first for an hour or until it serves an agent; null when it did not
 * lately.
 */
export function refusalWords(model: ModelStateView): string | null {
  const at = model.refusedServedAt;
  if (at === null) return null;
  return `refused a request another model served, at ${formatHourMinute(at)}: routed behind the others for an hour from then, or until it serves an agent`;
}

/**
 * Why a model ranks behind the others for requests that force a tool call: it ignored one that another
 * model then made, so the router asks it last for such requests for an hour or until it makes one; null
 * when it did not lately.
 */
export function ignoredForcedWords(model: ModelStateView): string | null {
  const at = model.ignoredForcedAt;
  if (at === null) return null;
  return `ignored a forced tool call another model made, at ${formatHourMinute(at)}: asked last for requests forcing one for an hour from then, or until it makes one`;
}
