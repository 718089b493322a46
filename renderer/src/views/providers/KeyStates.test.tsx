import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { ProviderView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { keyView, providerView } from '../../test-support/fixtures.js';
import { KeyStates } from './KeyStates.js';

const T0 = new Date('2026-03-01T12:00:00Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function show(provider: ProviderView) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <KeyStates provider={provider} target={{ model: `${provider.id}/m1`, before: null }} />
    </QueryClientProvider>,
  );
}

test('each key shows its fingerprint, source and state; a paused one counts down; env keys stay', () => {
  show(
    providerView('groq', {
      name: 'Groq',
      keys: [
        keyView('aaaaaaaaaaaa', { pausedModels: 2 }),
        keyView('bbbbbbbbbbbb', { state: 'paused', pausedUntil: T0 + 90_000, source: 'GROQ_KEY_2' }),
        keyView('cccccccccccc', { state: 'invalid' }),
      ],
    }),
  );
  const rows = within(screen.getByRole('list', { name: 'Groq keys' })).getAllByRole('listitem');
  expect(rows.map((row) => row.textContent)).toEqual([
    'aaaaaaaaaaaaconfigusable2 models pausedTestRemove',
    'bbbbbbbbbbbb$GROQ_KEY_2pausedback in 1:30Test',
    'ccccccccccccconfigrefusedTestRemove',
  ]);
  // Each key is tested on its own, a refused or paused one too (a test is how it is checked again).
  expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
    'Test key aaaaaaaaaaaa of Groq',
    'Remove key aaaaaaaaaaaa of Groq',
    'Test key bbbbbbbbbbbb of Groq',
    'Test key cccccccccccc of Groq',
    'Remove key cccccccccccc of Groq',
  ]);
});

test('a key’s budget: its most used model in full, with meters for each limit', () => {
  const budget = (model: string, dayRequests: number) => ({
    provider: 'groq',
    key: 'aaaaaaaaaaaa',
    model,
    dayRequests,
    dayTokens: 0,
    minuteRequests: 0,
    minuteTokens: 0,
    limits: { rpm: 30, rpd: 1000, tpm: null, tpd: null },
  });
  show(
    providerView('groq', {
      name: 'Groq',
      keys: [
        keyView('aaaaaaaaaaaa', {
          budgets: [budget('groq/a', 12), budget('groq/b', 3), budget('groq/c', 0)],
        }),
      ],
    }),
  );
  // The most used first, then the other model used today (behind a disclosure); an unused one is left out.
  expect(screen.getAllByTitle(/^groq\//).map((name) => name.textContent)).toEqual(['groq/a', 'groq/b']);
  const meters = screen.getAllByRole('meter', { hidden: true });
  expect(meters.map((m) => m.getAttribute('aria-label'))).toEqual([
    'requests today',
    'requests this minute',
    'requests today',
    'requests this minute',
  ]);
  expect(meters[0]?.getAttribute('value')).toBe('12');
  expect(screen.getByText('12 / 1,000')).toBeTruthy();
  expect(screen.getByText('1 more model used today')).toBeTruthy();
});

test('a provider without keys shows no list', () => {
  const { container } = show(providerView('kilo', { keys: [] }));
  expect(container.textContent).toBe('');
});

test('a key removed by keyboard leaves the focus on Undo; after Undo, on the key’s Remove button again', async () => {
  vi.useRealTimers();
  const user = userEvent.setup();
  vi.spyOn(api, 'removeProviderKey').mockResolvedValue({ ok: true, undoForMs: 60_000 });
  vi.spyOn(api, 'restoreProviderKey').mockResolvedValue({ ok: true });
  const client = new QueryClient();
  const keys = (...fingerprints: string[]) => (
    <QueryClientProvider client={client}>
      <KeyStates
        provider={providerView('groq', { name: 'Groq', keys: fingerprints.map((fp) => keyView(fp)) })}
        target={{ model: 'groq/m1', before: null }}
      />
    </QueryClientProvider>
  );
  const { rerender } = render(keys('aaaaaaaaaaaa', 'bbbbbbbbbbbb'));
  screen.getByRole('button', { name: 'Remove key bbbbbbbbbbbb of Groq' }).focus();
  await user.keyboard('{Enter}');
  const undo = await screen.findByRole('button', { name: 'Undo' });
  expect(undo).toHaveFocus();
  // The list read again, without the key.
  rerender(keys('aaaaaaaaaaaa'));
  expect(undo).toHaveFocus();

  await user.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull());
  rerender(keys('aaaaaaaaaaaa', 'bbbbbbbbbbbb'));
  expect(screen.getByRole('button', { name: 'Remove key bbbbbbbbbbbb of Groq' })).toHaveFocus();
});
