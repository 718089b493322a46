import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import { formatClock } from '../../lib/format.js';
import { ProbeControl, probeSummary } from './ProbeControl.js';

test('the last probe in a few words', () => {
  expect(probeSummary({ at: 0, ok: true, kind: null, latencyMs: 340 })).toBe(
    `probe ok, 340 ms at ${formatClock(0)}`,
  );
  expect(probeSummary({ at: 0, ok: false, kind: 'timeout', latencyMs: 15_000 })).toBe(
    `probe failed: timeout at ${formatClock(0)}`,
  );
});

test('a model shows its last probe beside "probe now"', () => {
  const client = new QueryClient();
  const last = { at: 0, ok: false, kind: 'server_error' as const, latencyMs: 80 };
  render(
    <QueryClientProvider client={client}>
      <ProbeControl modelKey="groq/llama" last={last} />
    </QueryClientProvider>,
  );
  expect(screen.getByRole('button', { name: 'Probe groq/llama now' })).toBeEnabled();
  expect(screen.getByText(`probe failed: server_error at ${formatClock(0)}`)).toHaveClass('outcome-bad');
});
