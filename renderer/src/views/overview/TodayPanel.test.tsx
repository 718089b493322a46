import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import type { HistoryResponse } from '../../../../router/api-types.js';
import { queryKeys } from '../../api/queries.js';
import { EMPTY_STATS } from '../../test-support/fixtures.js';
import { leftOut, TodayPanel } from './TodayPanel.js';

test('rejected requests have their own tile, and every rate says its window', () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const history: HistoryResponse = {
    entries: [],
    stats: {
      ...EMPTY_STATS,
      retained: 13,
      tests: 1,
      served: 3,
      rejected: 9,
      successRate: 1,
      today: { ...EMPTY_STATS.today, servedFirstTry: 3, refused: 9 },
    },
  };
  client.setQueryData(queryKeys.history, history);
  render(
    <QueryClientProvider client={client}>
      <TodayPanel />
    </QueryClientProvider>,
  );
  const tile = (label: string) => screen.getByText(label, { selector: '.stat-label' }).parentElement;
  expect(tile('rejected')).toHaveTextContent('9');
  expect(tile('rejected')).toHaveAttribute('title', expect.stringMatching(/router_paused/));
  expect(tile('all failed')).toHaveTextContent('0');
  expect(tile('served')).toHaveTextContent('3');
  for (const rate of ['Failover rate', 'Success rate', 'Avg attempts', 'Avg wall time'])
    expect(screen.getByText(rate, { exact: false, selector: 'dt' })).toHaveTextContent(
      `${rate} (last 12 requests)`,
    );
});

test('the requests left out of the rates are named by who sent them: dashboard tests and probes apart', () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const history: HistoryResponse = {
    entries: [],
    stats: { ...EMPTY_STATS, retained: 6, tests: 4, probes: 1, served: 2, successRate: 1 },
  };
  client.setQueryData(queryKeys.history, history);
  render(
    <QueryClientProvider client={client}>
      <TodayPanel />
    </QueryClientProvider>,
  );
  expect(screen.getByText('Agent requests only: 3 dashboard tests and 1 probe not counted.')).toBeVisible();
});

test('left out: only what there is, singular or plural', () => {
  expect(leftOut(1, 0)).toBe('1 dashboard test');
  expect(leftOut(2, 2)).toBe('2 probes');
  expect(leftOut(3, 1)).toBe('2 dashboard tests and 1 probe');
});
