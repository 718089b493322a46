import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { KeyView } from '../../../../router/api-types.js';
import { KeyStates } from './KeyStates.js';

const T0 = new Date('2026-03-01T12:00:00Z').getTime();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

const key = (fingerprint: string, over: Partial<KeyView> = {}): KeyView => ({
  fingerprint,
  source: 'config',
  state: 'usable',
  pausedUntil: null,
  pausedModels: 0,
  ...over,
});

test('each key shows its fingerprint, source and state; a paused one counts down', () => {
  render(
    <KeyStates
      providerName="Groq"
      keys={[
        key('aaaaaaaaaaaa', { pausedModels: 2 }),
        key('bbbbbbbbbbbb', { state: 'paused', pausedUntil: T0 + 90_000, source: 'GROQ_KEY_2' }),
        key('cccccccccccc', { state: 'invalid' }),
      ]}
    />,
  );
  const rows = within(screen.getByRole('list', { name: 'Groq keys' })).getAllByRole('listitem');
  expect(rows.map((row) => row.textContent)).toEqual([
    'aaaaaaaaaaaaconfigusable2 models paused',
    'bbbbbbbbbbbb$GROQ_KEY_2pausedback in 1:30',
    'ccccccccccccconfigrefused',
  ]);
});

test('one usable key needs no list', () => {
  const { container } = render(<KeyStates providerName="Groq" keys={[key('aaaaaaaaaaaa')]} />);
  expect(container.textContent).toBe('');
});
