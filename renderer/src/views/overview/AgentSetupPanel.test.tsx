import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { SetupPreviewResponse } from '../../../../router/api-types.js';
import { ApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { AgentSetupPanel, FILE_CHANGED } from './AgentSetupPanel.js';

afterEach(() => vi.restoreAllMocks());

const FILE = '/home/me/.codex/config.toml';

const preview = (plan: string, diff: string): SetupPreviewResponse => ({
  agent: 'codex',
  undo: false,
  file: FILE,
  diff,
  nothing: null,
  plan,
});

test('a write refused because the file changed since the preview shows the new change, which can be written', async () => {
  const user = userEvent.setup();
  vi.spyOn(api, 'setupAgents').mockResolvedValue({
    agents: [{ id: 'codex', name: 'Codex', file: FILE, state: 'not_set', problem: null }],
    demo: false,
  });
  vi.spyOn(api, 'previewSetup')
    .mockResolvedValueOnce(preview('plan-1', '--- /dev/null\n+model = "fcm"'))
    .mockResolvedValueOnce(preview('plan-2', ' model = "o3"\n+model_provider = "fcm"'));
  const apply = vi
    .spyOn(api, 'applySetup')
    .mockRejectedValueOnce(
      new ApiError(409, 'fcm-router: the file changed since the preview', 'setup_changed', []),
    )
    .mockResolvedValueOnce({ ok: true, message: `Wrote ${FILE}.` });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AgentSetupPanel />
    </QueryClientProvider>,
  );
  const codex = await screen.findByRole('listitem', { name: 'Codex' });
  await user.click(within(codex).getByRole('button', { name: /Set up/ }));
  await user.click(await within(codex).findByRole('button', { name: 'Write it' }));

  const diff = await within(codex).findByText(/model_provider = "fcm"/);
  expect(diff.closest('pre')).toHaveAccessibleName(`Setup change to ${FILE}`);
  expect(within(codex).getByRole('status')).toHaveTextContent(FILE_CHANGED);
  expect(within(codex).queryByText(/dev\/null/)).toBeNull();
  expect(within(codex).queryByText(/the file changed since the preview$/)).toBeNull();

  await user.click(within(codex).getByRole('button', { name: 'Write it' }));
  expect(apply.mock.calls.map(([sent]) => sent.plan)).toEqual(['plan-1', 'plan-2']);
  expect(await within(codex).findByText(`Wrote ${FILE}.`)).toBeInTheDocument();
  expect(within(codex).queryByText(FILE_CHANGED)).toBeNull();
});
