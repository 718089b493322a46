import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ModelHealth as Health } from '../lib/model-status.js';
import { ModelHealth } from './ModelHealth.js';
import { StateBadge } from './StateBadge.js';

const T0 = new Date('2026-03-01T12:00:00Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

test('each state has its badge text and colour class', () => {
  const states = ['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN', 'QUOTA_PAUSED', 'KEY_INVALID'] as const;
  const { container } = render(
    <>
      {states.map((s) => (
        <StateBadge key={s} state={s} />
      ))}
    </>,
  );
  const badges = [...container.querySelectorAll('.badge')];
  expect(badges.map((b) => b.textContent)).toEqual([
    'CLOSED',
    'DEGRADED',
    'OPEN',
    'HALF_OPEN',
    'QUOTA-PAUSED',
    'KEY-INVALID',
  ]);
  expect(badges.map((b) => b.className)).toEqual([
    'badge state-closed',
    'badge state-degraded',
    'badge state-open',
    'badge state-half-open',
    'badge state-quota-paused',
    'badge state-key-invalid',
  ]);
});

test('an OPEN breaker counts down live to HALF_OPEN, then says the trial is due', () => {
  const open: Health = { state: 'OPEN', openUntil: T0 + 65_000, quotaPausedUntil: null, authBlocked: false };
  render(<ModelHealth model={open} />);
  expect(screen.getByText('OPEN')).toHaveClass('state-open');
  expect(screen.getByRole('timer')).toHaveTextContent('HALF_OPEN in 1:05');
  act(() => vi.advanceTimersByTime(6000));
  expect(screen.getByRole('timer')).toHaveTextContent('HALF_OPEN in 59 s');
  act(() => vi.advanceTimersByTime(60_000));
  expect(screen.getByRole('timer')).toHaveTextContent('HALF_OPEN due');
});

test('a quota pause shows its badge and counts down to its end, then the breaker state returns', () => {
  const paused: Health = {
    state: 'CLOSED',
    openUntil: null,
    quotaPausedUntil: T0 + 3000,
    authBlocked: false,
  };
  render(<ModelHealth model={paused} />);
  expect(screen.getByText('QUOTA-PAUSED')).toBeInTheDocument();
  expect(screen.getByRole('timer')).toHaveTextContent('quota resumes in 3 s');
  act(() => vi.advanceTimersByTime(4000));
  expect(screen.getByText('CLOSED')).toBeInTheDocument();
  expect(screen.queryByRole('timer')).toBeNull();
});

test('a refused key shows KEY-INVALID and no countdown', () => {
  render(
    <ModelHealth
      model={{ state: 'OPEN', openUntil: T0 + 9000, quotaPausedUntil: null, authBlocked: true }}
    />,
  );
  expect(screen.getByText('KEY-INVALID')).toHaveClass('state-key-invalid');
  expect(screen.queryByRole('timer')).toBeNull();
});

test('a countdown that moves to a new moment starts from now, not from its last tick', () => {
  const degraded: Health = {
    state: 'DEGRADED',
    openUntil: null,
    trialDueAt: T0 + 30_000,
    quotaPausedUntil: null,
    authBlocked: false,
  };
  const { rerender } = render(<ModelHealth model={degraded} />);
  expect(screen.getByRole('timer')).toHaveTextContent('trial in 30 s');
  // 900 ms later, before the next tick, the breaker opens for 60 s.
  vi.setSystemTime(T0 + 900);
  rerender(<ModelHealth model={{ ...degraded, state: 'OPEN', trialDueAt: null, openUntil: T0 + 60_900 }} />);
  expect(screen.getByRole('timer')).toHaveTextContent('HALF_OPEN in 1:00');
});
