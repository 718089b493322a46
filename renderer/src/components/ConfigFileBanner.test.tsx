import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ConfigResponse } from '../../../router/api-types.js';
import { queryKeys } from '../api/queries.js';
import type { EventSourceLike } from '../live/event-stream.js';
import { LiveProvider } from '../live/LiveProvider.js';
import { DEFAULT_CONFIG } from '../test-support/default-config.js';
import { ConfigFileBanner } from './ConfigFileBanner.js';

/** The dashboard's EventSource, driven by the test. */
class FakeSource implements EventSourceLike {
  static last: FakeSource | null = null;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor() {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, listener);
  }
  close(): void {}
  emit(type: string, data: unknown): void {
    act(() => this.listeners.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data) })));
  }
}

const FILE = '/home/me/.config/fcm-router/config.json';

function configResponse(fileProblem: ConfigResponse['fileProblem']): ConfigResponse {
  const config = { sets: { main: ['groq/a'] }, activeSet: 'main' };
  return {
    config,
    effective: DEFAULT_CONFIG,
    defaults: DEFAULT_CONFIG,
    path: FILE,
    revision: 'r1',
    fileProblem,
  };
}

function renderLive(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(queryKeys.config, configResponse(null));
  render(
    <QueryClientProvider client={client}>
      <LiveProvider>
        <ConfigFileBanner />
      </LiveProvider>
    </QueryClientProvider>,
  );
  return client;
}

beforeEach(() => vi.stubGlobal('EventSource', FakeSource));
afterEach(() => vi.unstubAllGlobals());

test('a config-file event says the edit on disk was applied, and what it changed, until dismissed', async () => {
  renderLive();
  expect(screen.queryByRole('status')).toBeNull();
  FakeSource.last?.emit('config-file', {
    type: 'config-file',
    status: 'applied',
    path: FILE,
    changed: ['sets.handmade', 'router.ranking.order.default'],
  });
  const notice = await screen.findByRole('status');
  expect(notice).toHaveTextContent('config.json was changed on disk: applied');
  expect(notice).toHaveTextContent('(sets.handmade, router.ranking.order.default)');
  await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
  await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
});

test('an invalid edit on disk is named with its file and every issue, and says saves wait for the fix', async () => {
  const client = renderLive();
  FakeSource.last?.emit('config-file', {
    type: 'config-file',
    status: 'invalid',
    path: FILE,
    issues: [{ path: '(root)', message: 'invalid JSON at line 3, column 5' }],
  });
  // The router's config (refetched after the event) carries the problem, so a page opened later shows it too.
  act(() => {
    client.setQueryData(
      queryKeys.config,
      configResponse({
        path: FILE,
        issues: [{ path: '(root)', message: 'invalid JSON at line 3, column 5' }],
      }),
    );
  });
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('config.json has an error, so the router did not apply it.');
  expect(alert).toHaveTextContent('keeps running on the last good config');
  expect(alert).toHaveTextContent(FILE);
  expect(alert).toHaveTextContent('(root): invalid JSON at line 3, column 5');
  expect(screen.queryByRole('status')).toBeNull();

  act(() => {
    client.setQueryData(queryKeys.config, configResponse(null));
  });
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
});
