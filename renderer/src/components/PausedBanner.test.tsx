import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, expect, test } from 'vitest';
import { queryKeys } from '../api/queries.js';
import { modelView, stateOf } from '../test-support/fixtures.js';
import { PausedBanner } from './PausedBanner.js';

afterEach(() => {
  window.location.hash = '';
});

function banner(paused: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.state, stateOf([modelView('a/x')], { paused }));
  return (
    <QueryClientProvider client={client}>
      <PausedBanner />
    </QueryClientProvider>
  );
}

test('paused, a view other than the Overview shows the banner with its Resume button', () => {
  window.location.hash = '#/models';
  render(banner(true));
  expect(screen.getByRole('status')).toHaveTextContent('Routing is paused: agents get 503 router_paused.');
  expect(screen.getByRole('button', { name: 'Resume routing' })).toBeEnabled();
});
