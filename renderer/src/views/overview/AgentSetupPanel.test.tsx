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

const QWEN_FILE = '/home/me/.qwen/settings.json';
const QWEN_PROBLEM = `${QWEN_FILE} is not valid JSON (it holds comments, which setup cannot keep: add the settings by hand, as docs/agents.md shows); nothing was changed`;
const qwen = (state: 'not_set' | 'unreadable') => ({
  agents: [
    {
      id: 'qwen-code',
      name: 'Qwen Code',
      file: QWEN_FILE,
      state,
      problem: state === 'unreadable' ? QWEN_PROBLEM : null,
    },
  ],
  demo: false,
});

/** How often `text` occurs in what `element` says (a reason said twice, once with a prefix, counts 2). */
const timesIn = (element: HTMLElement, text: string) => (element.textContent ?? '').split(text).length - 1;

function renderPanel() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AgentSetupPanel />
    </QueryClientProvider>,
  );
}

test('a file that cannot be edited offers no Set up, only its reason and Check again, which reads it anew', async () => {
  const user = userEvent.setup();
  const list = vi
    .spyOn(api, 'setupAgents')
    .mockResolvedValueOnce(qwen('unreadable'))
    .mockResolvedValueOnce(qwen('not_set'));
  const preview = vi.spyOn(api, 'previewSetup');
  renderPanel();
  const row = await screen.findByRole('listitem', { name: 'Qwen Code' });
  expect(row).toHaveTextContent('cannot be edited');
  expect(timesIn(row, QWEN_PROBLEM)).toBe(1);
  expect(within(row).queryByRole('button', { name: /Set up|Undo/ })).toBeNull();

  await user.click(within(row).getByRole('button', { name: 'Check Qwen Code’s file again' }));
  expect(await within(row).findByRole('button', { name: 'Set up Qwen Code' })).toBeEnabled();
  expect(row).toHaveTextContent('not set up');
  expect(timesIn(row, QWEN_PROBLEM)).toBe(0);
  expect(list).toHaveBeenCalledTimes(2);
  expect(preview).not.toHaveBeenCalled();
});

test('a preview refused because the file became uneditable reads the files anew: the reason once, no Set up', async () => {
  const user = userEvent.setup();
  vi.spyOn(api, 'setupAgents')
    .mockResolvedValueOnce(qwen('not_set'))
    .mockResolvedValueOnce(qwen('unreadable'));
  vi.spyOn(api, 'previewSetup').mockRejectedValueOnce(
    new ApiError(409, `fcm-router: ${QWEN_PROBLEM}`, 'setup_refused', []),
  );
  renderPanel();
  const row = await screen.findByRole('listitem', { name: 'Qwen Code' });
  await user.click(within(row).getByRole('button', { name: 'Set up Qwen Code' }));

  expect(await within(row).findByText('cannot be edited')).toBeInTheDocument();
  expect(timesIn(row, QWEN_PROBLEM)).toBe(1);
  expect(within(row).queryByText(/HTTP 409/)).toBeNull();
  expect(within(row).queryByRole('button', { name: /Set up/ })).toBeNull();
});
