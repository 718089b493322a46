import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { ApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { keyView, providerView } from '../../test-support/fixtures.js';
import { KeyForm } from './KeyForm.js';

afterEach(() => vi.restoreAllMocks());

test('a key refused as already there: the refusal goes once the provider’s keys change', async () => {
  const user = userEvent.setup();
  vi.spyOn(api, 'addProviderKey').mockRejectedValue(
    new ApiError(409, "fcm-router: this key is already one of groq's keys (aaaaaaaaaaaa)", 'key_exists', []),
  );
  const client = new QueryClient();
  const form = (...fingerprints: string[]) => (
    <QueryClientProvider client={client}>
      <KeyForm
        provider={providerView('groq', { name: 'Groq', keys: fingerprints.map((fp) => keyView(fp)) })}
      />
    </QueryClientProvider>
  );
  const { rerender } = render(form('aaaaaaaaaaaa', 'bbbbbbbbbbbb'));
  await user.type(screen.getByLabelText('API key for Groq'), 'sk-same');
  await user.click(screen.getByRole('button', { name: /Add key/ }));
  expect(await screen.findByText(/already one of groq's keys/)).toBeInTheDocument();
  // The list read again after the refusal: the same keys, the refusal stays.
  rerender(form('aaaaaaaaaaaa', 'bbbbbbbbbbbb'));
  expect(screen.getByText(/already one of groq's keys/)).toBeInTheDocument();

  // The key it was a duplicate of is removed: the refusal is about a list there is no more.
  rerender(form('bbbbbbbbbbbb'));
  expect(screen.queryByText(/already one of groq's keys/)).toBeNull();
});

test('a key the router refuses is explained in the form’s words, without the router’s name or the HTTP status', async () => {
  const user = userEvent.setup();
  // The router's answer as it sends it: the sentence names the body field, `param` says which one.
  const refusal = {
    error: {
      message:
        'fcm-router: the apiKey given is not accepted: an API key is printable ASCII without spaces or line breaks',
      type: 'invalid_request_error',
      code: 'invalid_request',
      param: 'apiKey',
    },
  };
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(
    new Response(JSON.stringify(refusal), { status: 400, headers: { 'content-type': 'application/json' } }),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <KeyForm provider={providerView('groq', { name: 'Groq' })} />
    </QueryClientProvider>,
  );
  await user.type(screen.getByLabelText('API key for Groq'), 'sk-with space');
  await user.click(screen.getByRole('button', { name: /Add key/ }));
  expect(
    await screen.findByText(
      'the key given is not accepted: an API key is printable ASCII without spaces or line breaks',
    ),
  ).toBeInTheDocument();
});
