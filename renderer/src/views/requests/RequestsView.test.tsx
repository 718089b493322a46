import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, expect, test } from 'vitest';
import type { HistoryResponse } from '../../../../router/api-types.js';
import { queryKeys } from '../../api/queries.js';
import { EMPTY_STATS, historyEntry } from '../../test-support/fixtures.js';
import { PAGE_SIZE, RequestsView } from './RequestsView.js';

/** `count` requests, the newest first, ids counting up with their start (`r<n>` started at n s). */
const requests = (from: number, count: number): HistoryResponse['entries'] =>
  Array.from({ length: count }, (_, i) => historyEntry({ requestId: `r${from + i}`, at: (from + i) * 1000 }));

const history = (entries: HistoryResponse['entries']): HistoryResponse => ({ entries, stats: EMPTY_STATS });

afterEach(() => window.history.replaceState(null, '', '#/requests'));

test('an older page holds still while requests arrive, and says how many came since; the first page follows them', async () => {
  window.history.replaceState(null, '', '#/requests');
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.history, history(requests(1, 60)));
  render(
    <QueryClientProvider client={client}>
      <RequestsView />
    </QueryClientProvider>,
  );
  const pager = (): HTMLElement => screen.getByRole('navigation', { name: 'Pages' });
  fireEvent.click(within(pager()).getByRole('button', { name: 'Older →' }));
  const firstRow = (): string => screen.getAllByRole('listitem')[0]?.textContent ?? '';
  const before = firstRow();
  expect(within(pager()).getByText(/26–50 of 60 · page 2 of 3/)).toBeTruthy();

  client.setQueryData(queryKeys.history, history(requests(1, 65)));
  // The query's observers are told on a zero timeout.
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(firstRow()).toBe(before);
  expect(within(pager()).getByText(/26–50 of 60 · page 2 of 3 · 5 newer since/)).toBeTruthy();

  fireEvent.click(within(pager()).getByRole('button', { name: '← Newer' }));
  expect(within(pager()).getByText(new RegExp(`1–${PAGE_SIZE} of 65 · page 1 of 3$`))).toBeTruthy();
});

test('requests that share one request id are each a row, and an older page holds still on them', async () => {
  window.history.replaceState(null, '', '#/requests');
  // An agent that sends the same x-request-id with every request: entries differ by their number alone.
  const sameId = (count: number): HistoryResponse['entries'] =>
    Array.from({ length: count }, (_, i) =>
      historyEntry({ requestId: 'same-id', seq: i + 1, at: (i + 1) * 1000 }),
    ).reverse();
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.history, history(sameId(30)));
  render(
    <QueryClientProvider client={client}>
      <RequestsView />
    </QueryClientProvider>,
  );
  expect(screen.getAllByRole('listitem')).toHaveLength(PAGE_SIZE);
  const pager = (): HTMLElement => screen.getByRole('navigation', { name: 'Pages' });
  fireEvent.click(within(pager()).getByRole('button', { name: 'Older →' }));
  expect(screen.getAllByRole('listitem')).toHaveLength(5);

  client.setQueryData(queryKeys.history, history(sameId(33)));
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(within(pager()).getByText(/26–30 of 30 · page 2 of 2 · 3 newer since/)).toBeTruthy();
  expect(screen.getAllByRole('listitem')).toHaveLength(5);
});
