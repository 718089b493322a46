import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { api } from '../../api/endpoints.js';
import { providerView, stateOf } from '../../test-support/fixtures.js';
import { ProvidersView } from './ProvidersView.js';

afterEach(() => vi.restoreAllMocks());

function showProviders(providers: ReturnType<typeof providerView>[]): void {
  vi.spyOn(api, 'providers').mockResolvedValue({ providers, revision: 'r1' });
  vi.spyOn(api, 'state').mockResolvedValue(stateOf([]));
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ProvidersView />
    </QueryClientProvider>,
  );
}

test('a filter that lists no provider says why instead of showing an empty panel', async () => {
  showProviders([providerView('alpha'), providerView('beta', { keyStatus: 'not_required' })]);
  expect(await screen.findAllByText('alpha')).not.toHaveLength(0);
  expect(screen.queryByRole('status')).toBeNull();

  fireEvent.click(screen.getByRole('button', { name: 'Need a key' }));
  expect(screen.getByRole('status')).toHaveTextContent('Every provider has what it needs.');
  expect(screen.queryAllByText('alpha')).toHaveLength(0);

  fireEvent.click(screen.getByRole('button', { name: 'Usable' }));
  expect(screen.queryByRole('status')).toBeNull();
  expect(screen.getAllByText('beta')).not.toHaveLength(0);
});

test('with no usable provider, Usable says how to get one', async () => {
  showProviders([providerView('gamma', { keyStatus: 'missing' })]);
  expect(await screen.findAllByText('gamma')).not.toHaveLength(0);
  fireEvent.click(screen.getByRole('button', { name: 'Usable' }));
  expect(screen.getByRole('status')).toHaveTextContent(
    'No provider is usable yet: add a key to one under All.',
  );
});
