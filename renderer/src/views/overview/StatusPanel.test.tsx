import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, expect, test } from 'vitest';
import type { HealthResponse } from '../../../../router/api-types.js';
import { queryKeys } from '../../api/queries.js';
import { formatHourMinute } from '../../lib/format.js';
import { ConnectionContext } from '../../live/connection-context.js';
import type { ConnectionStatus } from '../../live/event-stream.js';
import { PausedBanner } from '../../components/PausedBanner.js';
import { GREEN, modelView, providerView, stateOf } from '../../test-support/fixtures.js';
import { StatusPanel } from './StatusPanel.js';

const HEALTH: HealthResponse = { ok: true, name: 'fcm-router', version: '0.1.0', uptimeMs: 90_000, pid: 1 };
const DOWN_AT = new Date(2030, 0, 15, 21, 4, 30).getTime();

function seeded(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.health, HEALTH);
  client.setQueryData(queryKeys.state, stateOf([modelView('a/x')]));
  client.setQueryData(queryKeys.providers, { providers: [] });
  return client;
}

function withConnection(client: QueryClient, status: ConnectionStatus): ReactNode {
  return (
    <QueryClientProvider client={client}>
      <ConnectionContext value={status}>
        <StatusPanel />
      </ConnectionContext>
    </QueryClientProvider>
  );
}

test('cut off from the router: the card says since when, figures are dimmed, Pause is disabled; it recovers', () => {
  const client = seeded();
  const down: ConnectionStatus = {
    state: 'retrying',
    attempt: 2,
    retryAt: DOWN_AT + 4000,
    downSince: DOWN_AT,
    cause: 'unreachable',
  };
  const view = render(withConnection(client, down));
  const card = screen.getByRole('status', { name: 'Router health' });
  expect(card).toHaveTextContent(`router not reachable since ${formatHourMinute(DOWN_AT)}`);
  expect(formatHourMinute(DOWN_AT)).toBe('21:04');
  expect(card).toHaveClass('verdict-red');
  expect(card).not.toHaveTextContent('routing');
  expect(screen.getByRole('button', { name: 'Pause routing' })).toBeDisabled();
  expect(screen.getByText('Uptime').closest('dl')).toHaveClass('stale');
  expect(screen.getByText('Uptime').nextElementSibling).toHaveTextContent('–');

  // Between two retries the stream is connecting again: still cut off.
  view.rerender(withConnection(client, { state: 'connecting', downSince: DOWN_AT }));
  expect(screen.getByRole('status', { name: 'Router health' })).toHaveTextContent('router not reachable');

  view.rerender(withConnection(client, { state: 'open', since: DOWN_AT + 60_000 }));
  const back = screen.getByRole('status', { name: 'Router health' });
  expect(back).toHaveClass('verdict-green');
  expect(back).toHaveTextContent('routing');
  expect(screen.getByRole('button', { name: 'Pause routing' })).toBeEnabled();
  expect(screen.getByText('Uptime').closest('dl')).not.toHaveClass('stale');
});

test('refused for want of the token: the card says the page has no token and how to open it with one', () => {
  const client = seeded();
  const refused: ConnectionStatus = {
    state: 'retrying',
    attempt: 1,
    retryAt: DOWN_AT + 1000,
    downSince: DOWN_AT,
    cause: 'token',
  };
  render(withConnection(client, refused));
  const card = screen.getByRole('status', { name: 'Router health' });
  expect(card).toHaveTextContent('this page has no token for the router');
  expect(card).toHaveTextContent(`Open this page as ${window.location.origin}/#token=<token>`);
  expect(card).toHaveTextContent('the token field of daemon.json');
  expect(card).not.toHaveTextContent('not reachable');
  expect(screen.getByRole('button', { name: 'Pause routing' })).toBeDisabled();
});

test('the catalogue line says which providers need no key, in agreement with how many', () => {
  const client = seeded();
  const keyless = (id: string, name: string) =>
    providerView(id, {
      name,
      keyStatus: 'not_required',
      keySource: null,
      models: [
        {
          key: `${id}/m`,
          modelId: 'm',
          label: null,
          tier: null,
          sweScore: null,
          context: null,
          vanished: false,
        },
      ],
    });
  client.setQueryData(queryKeys.providers, { providers: [keyless('llm7', 'LLM7')], revision: 'r' });
  const live: ConnectionStatus = { state: 'open', since: DOWN_AT };
  const view = render(withConnection(client, live));
  expect(screen.getByText(/no key\)/)).toHaveTextContent('(LLM7 needs no key)');
  client.setQueryData(queryKeys.providers, {
    providers: [keyless('llm7', 'LLM7'), keyless('kilo', 'Kilo Gateway'), keyless('pol', 'Pollinations')],
    revision: 'r',
  });
  view.rerender(withConnection(client, live));
  expect(screen.getByText(/no key\)/)).toHaveTextContent('(LLM7, Kilo Gateway and Pollinations need no key)');
});

afterEach(() => {
  window.location.hash = '';
});

test('paused, the Overview shows one Resume button, in the card', () => {
  window.location.hash = '#/overview';
  const client = seeded();
  const paused = {
    ...GREEN,
    level: 'red' as const,
    title: 'paused',
    reason: 'routing is paused, agents get 503: resume it',
    action: 'resume' as const,
  };
  client.setQueryData(queryKeys.state, stateOf([modelView('a/x')], { paused: true, health: paused }));
  render(
    <QueryClientProvider client={client}>
      <ConnectionContext value={{ state: 'open', since: DOWN_AT }}>
        <PausedBanner />
        <StatusPanel />
      </ConnectionContext>
    </QueryClientProvider>,
  );
  const card = screen.getByRole('status', { name: 'Router health' });
  expect(card).toHaveTextContent('Routing is paused, agents get 503: resume it.');
  expect(screen.getAllByRole('button', { name: 'Resume routing' })).toEqual([
    within(card).getByRole('button', { name: 'Resume routing' }),
  ]);
  expect(screen.queryByRole('button', { name: 'Pause routing' })).toBeNull();
});
