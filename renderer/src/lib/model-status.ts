import type { ModelStateView } from '../../../router/api-types.js';

/** What a model's badge shows: its breaker state, unless a key or quota problem matters more right now. */
export type DisplayState =
  'CLOSED' | 'DEGRADED' | 'OPEN' | 'HALF_OPEN' | 'QUOTA_PAUSED' | 'KEY_INVALID' | 'NO_KEY';

/** The fields of a model the badge and countdown read. */
export type ModelHealth = Pick<ModelStateView, 'state' | 'openUntil' | 'quotaPausedUntil' | 'authBlocked'> &
  Partial<Pick<ModelStateView, 'missingKey' | 'trialDueAt'>>;

/**
 * The badge for a model at `now`. A refused key blocks the model whatever its breaker says, and a running
 * quota pause keeps traffic away from a CLOSED model, so both outrank the breaker state.
 */
export function displayState(model: ModelHealth, now: number): DisplayState {
  // Without a key the model is never tried, so its breaker (CLOSED) says nothing.
  if (model.missingKey) return 'NO_KEY';
  if (model.authBlocked) return 'KEY_INVALID';
  if (model.quotaPausedUntil !== null && model.quotaPausedUntil > now) return 'QUOTA_PAUSED';
  return model.state;
}

export interface CountdownTarget {
  /** What happens when the countdown ends. */
  label: string;
  until: number;
}

/**
 * The deadline worth counting down to: the end of a quota pause, when an OPEN breaker lets a trial
 * through (HALF_OPEN), or when a DEGRADED model's trial takes its place back. Null when nothing is waiting.
 */
export function countdownTarget(model: ModelHealth, now: number): CountdownTarget | null {
  if (model.authBlocked) return null;
  if (model.quotaPausedUntil !== null && model.quotaPausedUntil > now) {
    return { label: 'quota resumes', until: model.quotaPausedUntil };
  }
  if (model.state === 'OPEN' && model.openUntil !== null)
    return { label: 'HALF_OPEN', until: model.openUntil };
  const trialAt = model.trialDueAt ?? null;
  if (model.state === 'DEGRADED' && trialAt !== null && trialAt > now)
    return { label: 'trial', until: trialAt };
  return null;
}

/**
 * Whether the next request that reaches this model is its trial, which closes or reopens the breaker:
 * HALF_OPEN, OPEN with its cooldown over, or DEGRADED with no new failure for a cooldown.
 */
export function trialNext(model: ModelHealth, now: number): boolean {
  if (model.state === 'HALF_OPEN') return true;
  if (model.state === 'OPEN') return model.openUntil !== null && model.openUntil <= now;
  const trialAt = model.trialDueAt ?? null;
  return model.state === 'DEGRADED' && trialAt !== null && trialAt <= now;
}

export const DISPLAY_LABELS: Record<DisplayState, string> = {
  CLOSED: 'CLOSED',
  DEGRADED: 'DEGRADED',
  OPEN: 'OPEN',
  HALF_OPEN: 'HALF_OPEN',
  QUOTA_PAUSED: 'QUOTA-PAUSED',
  KEY_INVALID: 'KEY-INVALID',
  NO_KEY: 'NO-KEY',
};

export const DISPLAY_HINTS: Record<DisplayState, string> = {
  CLOSED: 'Healthy: routed normally.',
  DEGRADED:
    'Recent failures: routed behind every healthy model until a cooldown passes without a failure, then one trial at its own place.',
  OPEN: 'Breaker tripped: skipped until the cooldown ends, then one trial request.',
  HALF_OPEN: 'Cooldown over: the next request is a trial that closes or reopens the breaker.',
  QUOTA_PAUSED: 'The provider asked to slow down (429 / Retry-After): skipped until the pause ends.',
  KEY_INVALID: 'The provider refused the key (401/403): skipped until the key changes or passes a test.',
  NO_KEY: 'The provider needs an API key and has none: skipped until one is added in Providers.',
};
