import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { queryKeys } from '../../api/queries.js';
import { modelView, stateOf } from '../../test-support/fixtures.js';
import { ModelsGlance } from './ModelsGlance.js';

test('models of a switched-off provider are named apart, not counted among the set’s states', () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(
    queryKeys.state,
    stateOf([
      modelView('a/x'),
      modelView('off/y', { blockedBy: 'provider_disabled', providerEnabled: false }),
      modelView('off/z', { blockedBy: 'provider_disabled', providerEnabled: false }),
    ]),
  );
  render(
    <QueryClientProvider client={client}>
      <ModelsGlance />
    </QueryClientProvider>,
  );
  expect(screen.getByRole('list', { name: 'Models by state' })).toHaveTextContent(/^CLOSED 1$/);
  const off = screen.getByRole('list', { name: 'Switched-off models' });
  expect(
    within(off)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(['off/yprovider switched off', 'off/zprovider switched off']);
  expect(screen.getByText('Every model in use is healthy.')).toBeInTheDocument();
});
