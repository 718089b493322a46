import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { trialOutcome, type ModelTestResult } from '../../api/test-model.js';
import { providerPart, testHeadline, TestResultView } from './TestResultView.js';

const base: ModelTestResult = {
  ok: true,
  status: 200,
  attempted: true,
  providerStatus: 200,
  latencyMs: 420,
  verdict: 'served',
  message: null,
  trial: null,
  key: null,
};

test('a test of an OPEN model is its trial, and the result says what the trial did', () => {
  const closed = trialOutcome('OPEN', { state: 'CLOSED', openUntil: null }, 1000);
  expect(testHeadline({ ...base, trial: closed })).toBe('trial passed: CLOSED');

  const reopened = trialOutcome('HALF_OPEN', { state: 'OPEN', openUntil: 1000 + 210_000 }, 1000);
  expect(reopened).toEqual({ passed: false, stateAfter: 'OPEN', openForMs: 210_000 });
  const failed = {
    ...base,
    ok: false,
    status: 502,
    providerStatus: null,
    verdict: 'empty_choices',
    trial: reopened,
  };
  expect(testHeadline(failed)).toBe('trial failed: OPEN for 3:30');

  render(<TestResultView result={failed} />);
  expect(screen.getByText('trial failed: OPEN for 3:30')).toHaveClass('outcome-bad');
  expect(screen.getByText('empty_choices')).toBeInTheDocument();
  expect(screen.getByText('HTTP 200 with no choices')).toBeInTheDocument();
  expect(screen.queryByText(/502/)).toBeNull();
});

test('a test of a model routed normally is no trial', () => {
  expect(trialOutcome('CLOSED', { state: 'CLOSED', openUntil: null }, 0)).toBeNull();
  expect(trialOutcome('DEGRADED', { state: 'OPEN', openUntil: 5 }, 0)).toBeNull();
  expect(trialOutcome('OPEN', undefined, 0)).toBeNull();
  expect(testHeadline(base)).toBe('test passed');
  expect(testHeadline({ ...base, ok: false, verdict: 'rate_limit' })).toBe('rate_limit');
});

test('a failed test says what the provider did, never the router’s own 502 as if it were the provider’s', () => {
  const failed = { ...base, ok: false, status: 502 };
  expect(providerPart({ ...failed, providerStatus: 503, verdict: 'overloaded' })).toBe(
    'HTTP 503 from the provider',
  );
  expect(providerPart({ ...failed, providerStatus: null, verdict: 'network_error' })).toBe(
    'connection refused, reset or DNS failure',
  );
  expect(providerPart({ ...failed, providerStatus: null, verdict: 'timeout' })).toBe(
    'no response headers in time',
  );
  const paused = { ...failed, status: 503, attempted: false, providerStatus: null, verdict: 'router_paused' };
  expect(providerPart(paused)).toBe('not sent to the provider (HTTP 503 from the router)');
  expect(providerPart({ ...paused, status: 0, verdict: 'unreachable' })).toBe('router not reachable');
  expect(providerPart(base)).toBe('HTTP 200 from the provider');

  render(<TestResultView result={{ ...failed, providerStatus: null, verdict: 'network_error' }} />);
  expect(screen.getByText('network_error')).toHaveClass('outcome-bad');
  expect(screen.queryByText(/HTTP/)).toBeNull();
});

test('a test of one key names the key it was sent with', () => {
  render(
    <TestResultView
      result={{ ...base, ok: false, providerStatus: 401, verdict: 'auth_error', key: 'ab12cd34' }}
    />,
  );
  expect(screen.getByText('ab12cd34').parentElement).toHaveTextContent('with key ab12cd34');
  expect(screen.getByText('HTTP 401 from the provider')).toBeInTheDocument();
});
