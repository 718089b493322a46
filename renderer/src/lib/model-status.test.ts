import { describe, expect, test } from 'vitest';
import { countdownTarget, displayState, trialNext, type ModelHealth } from './model-status.js';

const closed: ModelHealth = { state: 'CLOSED', openUntil: null, quotaPausedUntil: null, authBlocked: false };

describe('displayState', () => {
  test('shows the breaker state when nothing outranks it', () => {
    expect(displayState(closed, 1000)).toBe('CLOSED');
    expect(displayState({ ...closed, state: 'HALF_OPEN' }, 1000)).toBe('HALF_OPEN');
  });

  test('a refused key outranks everything, a running quota pause outranks the breaker', () => {
    expect(displayState({ ...closed, state: 'OPEN', authBlocked: true, quotaPausedUntil: 5000 }, 1000)).toBe(
      'KEY_INVALID',
    );
    expect(displayState({ ...closed, quotaPausedUntil: 5000 }, 1000)).toBe('QUOTA_PAUSED');
    expect(displayState({ ...closed, quotaPausedUntil: 500 }, 1000)).toBe('CLOSED');
  });

  test('a model without a key shows that, not its untouched CLOSED breaker', () => {
    expect(displayState({ ...closed, missingKey: true }, 1000)).toBe('NO_KEY');
  });
});

describe('countdownTarget', () => {
  test('counts down to the end of a quota pause first, then to HALF_OPEN', () => {
    expect(
      countdownTarget({ ...closed, state: 'OPEN', openUntil: 9000, quotaPausedUntil: 4000 }, 1000),
    ).toEqual({
      label: 'quota resumes',
      until: 4000,
    });
    expect(countdownTarget({ ...closed, state: 'OPEN', openUntil: 9000 }, 1000)).toEqual({
      label: 'HALF_OPEN',
      until: 9000,
    });
  });

  test('nothing to count for a healthy or key-blocked model', () => {
    expect(countdownTarget(closed, 1000)).toBeNull();
    expect(
      countdownTarget({ ...closed, state: 'OPEN', openUntil: 9000, authBlocked: true }, 1000),
    ).toBeNull();
  });
});

describe('a DEGRADED model’s trial', () => {
  const degraded: ModelHealth = { ...closed, state: 'DEGRADED', trialDueAt: 5000 };

  test('is counted down to, and is next once due', () => {
    expect(countdownTarget(degraded, 1000)).toEqual({ label: 'trial', until: 5000 });
    expect(trialNext(degraded, 1000)).toBe(false);
    expect(countdownTarget(degraded, 5000)).toBeNull();
    expect(trialNext(degraded, 5000)).toBe(true);
  });

  test('a trial is next for HALF_OPEN and for OPEN past its cooldown, never for CLOSED', () => {
    expect(trialNext({ ...closed, state: 'HALF_OPEN' }, 1000)).toBe(true);
    expect(trialNext({ ...closed, state: 'OPEN', openUntil: 900 }, 1000)).toBe(true);
    expect(trialNext({ ...closed, state: 'OPEN', openUntil: 9000 }, 1000)).toBe(false);
    expect(trialNext(closed, 1000)).toBe(false);
  });
});
