import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { AddProvider } from './AddProvider.js';

const form = () => (
  <QueryClientProvider client={new QueryClient()}>
    <AddProvider />
  </QueryClientProvider>
);

test('what is typed outlasts the form leaving the screen (another view)', async () => {
  const user = userEvent.setup();
  const first = render(form());
  await user.type(screen.getByLabelText(/^Id/), 'mine');
  await user.type(screen.getByLabelText(/^Base URL/), 'http://127.0.0.1:9/v1');
  first.unmount();
  render(form());
  expect(screen.getByLabelText(/^Id/)).toHaveValue('mine');
  expect(screen.getByLabelText(/^Base URL/)).toHaveValue('http://127.0.0.1:9/v1');
});
