import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import type { LimitsView } from '../../../../router/api-types.js';
import { ApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { providerView } from '../../test-support/fixtures.js';
import { LimitsForm } from './LimitsForm.js';
import { SETTINGS_CHANGED_ON_DISK } from './use-provider-settings.js';

afterEach(() => vi.restoreAllMocks());

const client = new QueryClient();
const wrap = (ui: ReactNode) => <QueryClientProvider client={client}>{ui}</QueryClientProvider>;

/** The Limits form of provider `up` as read at `revision`, with the config's override `override`. */
const form = (override: Partial<LimitsView>, revision: string) =>
  wrap(
    <LimitsForm
      provider={providerView('up', {
        limits: { published: { rpm: 30, rpd: 1000, tpm: null, tpd: null }, override },
      })}
      revision={revision}
    />,
  );

test('an untouched form follows the file: a limit set on disk shows in its field', () => {
  const { rerender } = render(form({}, 'rev-1'));
  expect(screen.getByLabelText('requests per day')).toHaveValue('');
  rerender(form({ rpd: 500 }, 'rev-2'));
  expect(screen.getByLabelText('requests per day')).toHaveValue('500');
  expect(screen.queryByText(/changed on disk while you were editing/)).toBeNull();
});

test('unsaved edits are carried over to the file, a clash is named, and the save keeps what the file has', async () => {
  const user = userEvent.setup();
  const save = vi.spyOn(api, 'saveProviderSettings').mockResolvedValue({ ok: true, revision: 'rev-3' });
  const { rerender } = render(form({}, 'rev-1'));
  await user.type(screen.getByLabelText('requests per minute'), '10');
  rerender(form({ rpm: 30, rpd: 500 }, 'rev-2'));
  expect(screen.getByLabelText('requests per minute')).toHaveValue('10');
  expect(screen.getByLabelText('requests per day')).toHaveValue('500');
  const notice = screen.getByText(/changed on disk while you were editing/).closest('.notice');
  expect(notice).toHaveTextContent(
    'Changed on disk as well, your value kept: requests per minute (the file has 30).',
  );

  await user.click(screen.getByRole('button', { name: 'Save limits of up' }));
  expect(save).toHaveBeenCalledWith('up', { limits: { rpm: 10, rpd: 500 } }, 'rev-2');
  expect(screen.getByRole('status')).toHaveTextContent('saved');
  expect(screen.queryByText(/changed on disk while you were editing/)).toBeNull();
});

test('a save refused because the file changed since keeps the edits and says why', async () => {
  const user = userEvent.setup();
  const save = vi
    .spyOn(api, 'saveProviderSettings')
    .mockRejectedValue(new ApiError(409, 'changed on disk', 'config_changed_on_disk', []));
  render(form({ rpd: 500 }, 'rev-1'));
  await user.type(screen.getByLabelText('requests per minute'), '10');
  await user.click(screen.getByRole('button', { name: 'Save limits of up' }));
  expect(save).toHaveBeenCalledWith('up', { limits: { rpm: 10, rpd: 500 } }, 'rev-1');
  expect(screen.getByText(`Not saved: ${SETTINGS_CHANGED_ON_DISK}`)).toBeInTheDocument();
  expect(screen.getByLabelText('requests per minute')).toHaveValue('10');
  await user.click(screen.getByRole('button', { name: 'Discard changes to limits of up' }));
  expect(screen.getByLabelText('requests per minute')).toHaveValue('');
});

test('a clash stays named through a later change elsewhere in the file, while the values still differ', async () => {
  const user = userEvent.setup();
  const { rerender } = render(form({}, 'rev-1'));
  await user.type(screen.getByLabelText('requests per minute'), '10');
  rerender(form({ rpm: 30 }, 'rev-2'));
  rerender(form({ rpm: 30, tpd: 90_000 }, 'rev-3'));
  expect(screen.getByLabelText('tokens per day')).toHaveValue('90000');
  const notice = screen.getByText(/changed on disk while you were editing/).closest('.notice');
  expect(notice).toHaveTextContent(
    'Changed on disk as well, your value kept: requests per minute (the file has 30).',
  );
  // The file came to hold the user's value: nothing is unsaved, and the notice goes.
  rerender(form({ rpm: 10, tpd: 90_000 }, 'rev-4'));
  expect(screen.queryByText(/changed on disk while you were editing/)).toBeNull();
  expect(screen.queryByRole('button', { name: 'Discard changes to limits of up' })).toBeNull();
});

test('unsaved edits outlast the form leaving the screen (another view)', async () => {
  const user = userEvent.setup();
  const first = render(form({ rpd: 500 }, 'rev-1'));
  await user.type(screen.getByLabelText('requests per minute'), '10');
  first.unmount();
  render(form({ rpd: 500 }, 'rev-1'));
  expect(screen.getByLabelText('requests per minute')).toHaveValue('10');
  expect(screen.getByRole('button', { name: 'Discard changes to limits of up' })).toBeInTheDocument();
});
