import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { ApiError } from '../../api/client.js';
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

/** The router's refusal of a provider whose base URL is not http(s), as `POST /api/providers/add` says it. */
const badUrl = (id: string) =>
  new ApiError(400, 'fcm-router: invalid config', 'invalid_config', [
    { path: `providers.${id}.baseUrl`, message: 'must be an http(s) URL' },
  ]);

test('a field fixed since the router refused it loses the router’s error, also when the page’s check stops the next submit', async () => {
  const user = userEvent.setup();
  const add = vi.spyOn(api, 'addProvider').mockRejectedValue(badUrl('second'));
  render(form());
  const baseUrl = screen.getByLabelText(/^Base URL/);
  await user.type(screen.getByLabelText(/^Id/), 'second');
  await user.type(baseUrl, 'ftp://x');
  await user.click(screen.getByRole('button', { name: 'Add provider' }));
  await expect.poll(() => baseUrl.getAttribute('aria-invalid')).toBe('true');
  expect(baseUrl).toHaveAccessibleDescription('must be an http(s) URL');

  await user.clear(baseUrl);
  await user.type(baseUrl, 'http://127.0.0.1:9/v1');
  await user.type(screen.getByLabelText(/^Extra headers/), 'NoColonHere');
  await user.click(screen.getByRole('button', { name: 'Add provider' }));
  expect(screen.getByLabelText(/^Extra headers/)).toHaveAccessibleDescription(
    '“NoColonHere” is not “Name: value”',
  );
  expect(baseUrl).toHaveAttribute('aria-invalid', 'false');
  expect(screen.queryByText('must be an http(s) URL')).toBeNull();
  expect(add).toHaveBeenCalledTimes(1);
});

test('editing the field the router refused takes its error away at once; the other field keeps its own', async () => {
  const user = userEvent.setup();
  vi.spyOn(api, 'addProvider').mockRejectedValue(
    new ApiError(400, 'fcm-router: invalid config', 'invalid_config', [
      { path: 'providers.second.baseUrl', message: 'must be an http(s) URL' },
      { path: 'providers.second.models.0', message: 'a model id has no spaces' },
    ]),
  );
  render(form());
  await user.type(screen.getByLabelText(/^Id/), 'second');
  await user.type(screen.getByLabelText(/^Base URL/), 'ftp://x');
  await user.type(screen.getByLabelText(/^Model ids/), 'a b');
  await user.click(screen.getByRole('button', { name: 'Add provider' }));
  expect(await screen.findByText('must be an http(s) URL')).toBeVisible();

  await user.type(screen.getByLabelText(/^Base URL/), 'x');
  expect(screen.queryByText('must be an http(s) URL')).toBeNull();
  expect(screen.getByLabelText(/^Base URL/)).toHaveAttribute('aria-invalid', 'false');
  expect(screen.getByLabelText(/^Model ids/)).toHaveAccessibleDescription(
    'model 1: a model id has no spaces',
  );
});

test('an empty submit names every required field at once and sends nothing', async () => {
  const user = userEvent.setup();
  const add = vi.spyOn(api, 'addProvider').mockResolvedValue({ ok: true });
  render(form());
  await user.click(screen.getByRole('button', { name: 'Add provider' }));
  expect(screen.getByLabelText(/^Id/)).toHaveAccessibleDescription('required: letters, digits, . _ -');
  expect(screen.getByLabelText(/^Base URL/)).toHaveAccessibleDescription(
    'required: the server’s http(s) URL',
  );
  expect(screen.getByLabelText(/^Model ids/)).toHaveAttribute('aria-invalid', 'false');
  expect(add).not.toHaveBeenCalled();
});
