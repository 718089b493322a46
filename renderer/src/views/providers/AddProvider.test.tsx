import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { api } from '../../api/endpoints.js';
import { AddProvider } from './AddProvider.js';

afterEach(() => vi.restoreAllMocks());

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

test('once added, the line pins the first model id entered, or says where models go when none was', async () => {
  const user = userEvent.setup();
  vi.spyOn(api, 'addProvider').mockResolvedValue({ ok: true });
  render(form());
  await user.type(screen.getByLabelText(/^Id/), 'myserver');
  await user.type(screen.getByLabelText(/^Base URL/), 'http://127.0.0.1:9/v1');
  await user.type(screen.getByLabelText(/^Model ids/), 'llama-3.1-8b, qwen-2');
  await user.click(screen.getByRole('button', { name: 'Add provider' }));
  expect(await screen.findByRole('status')).toHaveTextContent(
    'Added “myserver”: pin it as fcm:@myserver/llama-3.1-8b or add its models to a set in Models.',
  );

  await user.type(screen.getByLabelText(/^Id/), 'bare');
  await user.type(screen.getByLabelText(/^Base URL/), 'http://127.0.0.1:9/v1');
  await user.click(screen.getByRole('button', { name: 'Add provider' }));
  await expect.poll(() => screen.getByRole('status').textContent).toContain('Added “bare” without models');
  expect(screen.getByRole('status')).toHaveTextContent(
    'Check the providers’ model lists offers the models its server lists in Add a model; or list their ids in providers.bare.models under Settings › Config file (JSON)',
  );
  expect(screen.getByRole('status')).not.toHaveTextContent('fcm:@');
});
