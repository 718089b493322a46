import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError } from '../api/client.js';
import { api } from '../api/endpoints.js';
import { ConnectionContext } from '../live/connection-context.js';
import type { ConnectionStatus } from '../live/event-stream.js';
import { ModelsView } from '../views/models/ModelsView.js';
import { AgentSetupPanel } from '../views/overview/AgentSetupPanel.js';
import { TodayPanel } from '../views/overview/TodayPanel.js';
import { ProvidersView } from '../views/providers/ProvidersView.js';
import { RequestsView } from '../views/requests/RequestsView.js';
import { SettingsView } from '../views/settings/SettingsView.js';
import { UsageView } from '../views/usage/UsageView.js';
import { ConnectionBanner } from './ConnectionIndicator.js';
import { errorText, TOKEN_REFUSED_WORDS } from './QueryStatus.js';

afterEach(() => vi.restoreAllMocks());

/** The router's answer to a read without its token, when it accepts remote connections. */
const TOKEN_REFUSAL =
  'fcm-router: this router accepts remote connections: send x-fcm-token, or open the dashboard as /#token=<token> (the token field of daemon.json in its state folder)';

const READS = ['state', 'history', 'config', 'providers', 'usage', 'models', 'setupAgents'] as const;

function refuseEveryRead(error: ApiError): void {
  for (const read of READS) vi.spyOn(api, read).mockRejectedValue(error);
}

function page(status: ConnectionStatus, children: ReactNode): ReactNode {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <ConnectionContext value={status}>
        <ConnectionBanner />
        {children}
      </ConnectionContext>
    </QueryClientProvider>
  );
}

const refused: ConnectionStatus = {
  state: 'retrying',
  attempt: 1,
  retryAt: 2000,
  downSince: 1000,
  cause: 'token',
};

test('without the router’s token, the banner alone says so: each panel points at it and none quotes the router’s refusal', async () => {
  refuseEveryRead(new ApiError(403, TOKEN_REFUSAL, 'forbidden_token', []));
  render(
    page(
      refused,
      <>
        <TodayPanel />
        <AgentSetupPanel />
        <ModelsView />
        <RequestsView />
        <UsageView />
        <ProvidersView />
        <SettingsView />
      </>,
    ),
  );
  const pointers = ['statistics', 'the agents', 'models', 'history', 'usage', 'providers', 'the config'].map(
    (what) => `Could not load ${what} without the router’s token: see the banner above.`,
  );
  for (const line of pointers) expect(await screen.findByText(line)).toBeInTheDocument();
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('This page has no token for the router');
  expect(screen.queryByText(/x-fcm-token|fcm-router:/)).toBeNull();
  expect(document.body).not.toHaveTextContent('send x-fcm-token');
});

test('beside the panels refused for want of the token, any other failure of a read is shown as an alert in its own words', async () => {
  refuseEveryRead(new ApiError(403, TOKEN_REFUSAL, 'forbidden_token', []));
  vi.spyOn(api, 'history').mockRejectedValue(
    new ApiError(500, 'fcm-router: internal error', 'internal_error', []),
  );
  vi.spyOn(api, 'config').mockRejectedValue(
    new ApiError(400, 'config.json: colour: unknown key', 'invalid_config', []),
  );
  render(
    page(
      refused,
      <>
        <TodayPanel />
        <SettingsView />
        <ModelsView />
        <ProvidersView />
      </>,
    ),
  );
  const statistics = await screen.findByText('Could not load statistics: internal error');
  expect(statistics).toHaveAttribute('role', 'alert');
  const config = await screen.findByText('Could not load the config: config.json: colour: unknown key');
  expect(config).toHaveAttribute('role', 'alert');
  for (const what of ['models', 'providers'])
    expect(
      await screen.findByText(`Could not load ${what} without the router’s token: see the banner above.`),
    ).not.toHaveAttribute('role');
  // The banner and the two failures of their own.
  expect(within(document.body).getAllByRole('alert')).toHaveLength(3);
});

describe('errorText', () => {
  test('a change refused for the page’s token says what to do, not the router’s words for scripts', () => {
    const refused = new ApiError(
      403,
      'fcm-router: missing or wrong x-fcm-token: the dashboard sends it (reload it); scripts read it from the token field of daemon.json in the state folder',
      'forbidden_token',
      [],
    );
    expect(errorText(refused)).toBe(TOKEN_REFUSED_WORDS);
    expect(TOKEN_REFUSED_WORDS).toMatch(/\/#token=<token>/);
  });

  test('the router’s sentence shows without its name and without the HTTP status', () => {
    expect(
      errorText(
        new ApiError(409, 'fcm-router: a set named "demo" exists: pick another name', 'set_exists', [], 'to'),
      ),
    ).toBe('a set named "demo" exists: pick another name');
    expect(errorText(new ApiError(409, 'config changed on disk', 'config_conflict', []))).toBe(
      'config changed on disk',
    );
  });

  test('a body field the router names reads as the form calls it, and only a field the form sends', () => {
    const badKey = new ApiError(
      400,
      'fcm-router: the apiKey given is not accepted: an API key is printable ASCII',
      'invalid_request',
      [],
      'apiKey',
    );
    expect(errorText(badKey, { apiKey: 'key' })).toBe(
      'the key given is not accepted: an API key is printable ASCII',
    );
    expect(errorText(badKey)).toBe('the apiKey given is not accepted: an API key is printable ASCII');
    const noProvider = new ApiError(
      400,
      'fcm-router: "provider" is missing',
      'invalid_request',
      [],
      'provider',
    );
    expect(errorText(noProvider, { apiKey: 'key' })).toBe('"provider" is missing');
  });
});
