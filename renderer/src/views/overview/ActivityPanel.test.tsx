import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { HistoryResponse } from '../../../../router/api-types.js';
import { queryKeys } from '../../api/queries.js';
import { EMPTY_STATS, historyEntry } from '../../test-support/fixtures.js';
import { ActivityPanel } from './ActivityPanel.js';

// 14:45:50: the chart's newest two-minute slice is 14:44–14:46.
const MOUNTED = Date.UTC(2026, 11, 3, 14, 45, 50);

/** A 2D context and paths that draw nothing: happy-dom has neither, and the panel's charts draw as they mount. */
const silent = (): object =>
  new Proxy(
    {},
    { get: (_target, name) => (name === 'measureText' ? () => ({ width: 0 }) : () => undefined) },
  );

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(MOUNTED);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(silent() as CanvasRenderingContext2D);
  vi.stubGlobal('Path2D', function Path2D() {
    return silent();
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const history = (entries: HistoryResponse['entries']): HistoryResponse => ({ entries, stats: EMPTY_STATS });

test('a request that arrives after the minute turned is in the last hour at once, before the clock’s next tick', async () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.history, history([]));
  render(
    <QueryClientProvider client={client}>
      <ActivityPanel />
    </QueryClientProvider>,
  );
  const rejected = () => screen.getByText('rejected', { exact: false, selector: '.legend li' });
  expect(rejected()).toHaveTextContent('rejected 0');
  // 14:46:05, in the next slice; the panel's 30 s clock has not ticked since it mounted.
  vi.setSystemTime(MOUNTED + 15_000);
  const entry = historyEntry({ at: MOUNTED + 15_000, outcome: 'rejected', attempts: [], clientStatus: 503 });
  client.setQueryData(queryKeys.history, history([entry]));
  // The query's observers are told on a zero timeout (a real one: only the interval clock is faked).
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(rejected()).toHaveTextContent('rejected 1');
});
