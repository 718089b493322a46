import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import type { ProviderProbeView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { providerView } from '../../test-support/fixtures.js';
import { ProbeSettings } from './ProbeSettings.js';

afterEach(() => vi.restoreAllMocks());

const client = new QueryClient();
const wrap = (ui: ReactNode) => <QueryClientProvider client={client}>{ui}</QueryClientProvider>;

const form = (probe: Partial<ProviderProbeView>, revision: string) =>
  wrap(
    <ProbeSettings
      provider={providerView('up', {
        probe: { enabled: false, dailyBudget: 50, idleIntervalMs: null, spentToday: 0, ...probe },
      })}
      revision={revision}
    />,
  );

test('the form follows the file, and the switch saves what the file has with its revision', async () => {
  const user = userEvent.setup();
  const save = vi.spyOn(api, 'saveProviderSettings').mockResolvedValue({ ok: true, revision: 'rev-3' });
  const { rerender } = render(form({}, 'rev-1'));
  expect(screen.getByLabelText('probes a day, at most')).toHaveValue('50');
  rerender(form({ dailyBudget: 20 }, 'rev-2'));
  expect(screen.getByLabelText('probes a day, at most')).toHaveValue('20');
  expect(screen.getByText('0 of 20 spent today')).toBeInTheDocument();

  await user.click(screen.getByRole('checkbox', { name: 'Probes' }));
  expect(save).toHaveBeenCalledWith(
    'up',
    { probe: { enabled: true, dailyBudget: 20, idleIntervalMs: null } },
    'rev-2',
  );
});

test('a clash with the file is named with the file’s value; the user’s is kept', async () => {
  const user = userEvent.setup();
  const { rerender } = render(form({}, 'rev-1'));
  const budget = screen.getByLabelText('probes a day, at most');
  await user.clear(budget);
  await user.type(budget, '30');
  rerender(form({ dailyBudget: 20, idleIntervalMs: 300_000 }, 'rev-2'));
  expect(budget).toHaveValue('30');
  expect(screen.getByLabelText(/idle for/)).toHaveValue('5');
  expect(screen.getByText(/changed on disk while you were editing/).closest('.notice')).toHaveTextContent(
    'Changed on disk as well, your value kept: probes a day (the file has 20).',
  );
});
