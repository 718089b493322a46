import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { trialOutcome, type ModelTestResult } from '../../api/test-model.js';
import { testHeadline, TestResultView } from './TestResultView.js';

const base: ModelTestResult = {
  ok: true,
  status: 200,
  latencyMs: 420,
  verdict: 'served',
  message: null,
  trial: null,
};

test('a test of an OPEN model is its trial, and the result says what the trial did', () => {
  const closed = trialOutcome('OPEN', { state: 'CLOSED', openUntil: null }, 1000);
  expect(testHeadline({ ...base, trial: closed })).toBe('trial passed: CLOSED');

  const reopened = trialOutcome('HALF_OPEN', { state: 'OPEN', openUntil: 1000 + 210_000 }, 1000);
  expect(reopened).toEqual({ passed: false, stateAfter: 'OPEN', openForMs: 210_000 });
  const failed = { ...base, ok: false, status: 502, verdict: 'empty_choices', trial: reopened };
  expect(testHeadline(failed)).toBe('trial failed: OPEN for 3:30');

  render(<TestResultView result={failed} />);
  expect(screen.getByText('trial failed: OPEN for 3:30')).toHaveClass('outcome-bad');
  expect(screen.getByText('empty_choices')).toBeInTheDocument();
  expect(screen.getByText('HTTP 502')).toBeInTheDocument();
});

test('a test of a model routed normally is no trial', () => {
  expect(trialOutcome('CLOSED', { state: 'CLOSED', openUntil: null }, 0)).toBeNull();
  expect(trialOutcome('DEGRADED', { state: 'OPEN', openUntil: 5 }, 0)).toBeNull();
  expect(trialOutcome('OPEN', undefined, 0)).toBeNull();
  expect(testHeadline(base)).toBe('test passed');
  expect(testHeadline({ ...base, ok: false, verdict: 'rate_limit' })).toBe('rate_limit');
});
