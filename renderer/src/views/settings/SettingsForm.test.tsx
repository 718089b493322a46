import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { ConfigInput, ConfigResponse, ConfigSaveResponse } from '../../../../router/api-types.js';
import { ApiError } from '../../api/client.js';
import { CHANGED_ON_DISK, SettingsForm } from './SettingsForm.js';
import { DEFAULT_CONFIG } from '../../test-support/default-config.js';

const defaults: ConfigInput = DEFAULT_CONFIG;

const response: ConfigResponse = {
  config: {
    providers: { up: { apiKey: '********', baseUrl: 'http://127.0.0.1:1/v1' } },
    sets: { default: ['up/m1'] },
  },
  effective: defaults,
  defaults,
  path: '/tmp/config.json',
  revision: 'rev-1',
  fileProblem: null,
};

/** A server stand-in that validates like the schema does for the one field under test. */
function fakeServer() {
  const sent: ConfigInput[] = [];
  const onSave = async (config: ConfigInput): Promise<ConfigSaveResponse> => {
    sent.push(config);
    const attempts = config.router?.failover?.maxAttempts;
    if (attempts !== undefined && (typeof attempts !== 'number' || attempts > 20)) {
      throw new ApiError(400, 'invalid config', 'invalid_config', [
        { path: 'router.failover.maxAttempts', message: 'Too big: expected number to be <=20' },
        { path: 'activeSet', message: 'names no set' },
      ]);
    }
    return { ok: true, changed: ['router.failover.maxAttempts'], config };
  };
  return { sent, onSave };
}

describe('SettingsForm', () => {
  test('shows each knob with its default, unit and explanation', () => {
    render(<SettingsForm config={response} onSave={fakeServer().onSave} />);
    const field = screen.getByLabelText('Initial cooldown');
    expect(field).toHaveValue('30000');
    expect(field).toHaveAccessibleDescription(/stays OPEN the first time.*Default: 30000/);
    expect(screen.getByLabelText('Content validation')).toHaveValue('strict');
    expect(screen.getAllByRole('group')).toHaveLength(2);
  });

  test('puts the server’s validation errors next to their field, then applies a valid value', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    render(<SettingsForm config={response} onSave={server.onSave} />);
    const maxAttempts = screen.getByLabelText(/Max attempts/);

    await user.clear(maxAttempts);
    await user.type(maxAttempts, '99');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(maxAttempts).toHaveAttribute('aria-invalid', 'true');
    expect(maxAttempts).toHaveAccessibleDescription(/Too big: expected number to be <=20/);
    const field = maxAttempts.closest('.field') as HTMLElement;
    expect(within(field).getByRole('alert')).toHaveTextContent('Too big: expected number to be <=20');
    // An issue for a path the form has no field for is shown above the form, not lost.
    expect(screen.getByText(/names no set/)).toBeInTheDocument();
    expect(screen.getByLabelText('Request timeout')).toHaveAttribute('aria-invalid', 'false');
    // The rest of the config goes back as it was, masked secret included.
    expect(server.sent[0]?.providers).toEqual(response.config.providers);
    expect(server.sent[0]?.router).toEqual({ failover: { maxAttempts: 99 } });

    await user.clear(maxAttempts);
    await user.type(maxAttempts, '6');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(maxAttempts).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText(/Too big/)).toBeNull();
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Applied live');
    expect(status).toHaveTextContent('Max attempts router.failover.maxAttempts: 4 → 6');
  });

  test('Reset to defaults fills in every default and marks what changed', async () => {
    const user = userEvent.setup();
    const tuned = {
      ...response,
      effective: { ...defaults, router: { ...defaults.router, breaker: { failureThreshold: 7 } } },
    };
    render(<SettingsForm config={tuned} onSave={fakeServer().onSave} />);
    expect(screen.getByLabelText('Failure threshold')).toHaveValue('7');
    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(screen.getByLabelText(/Failure threshold/)).toHaveValue('3');
    expect(screen.getByText('unsaved changes')).toBeInTheDocument();
  });

  test('a save that fails without issues says why', async () => {
    const user = userEvent.setup();
    const onSave = async (): Promise<ConfigSaveResponse> => {
      throw new ApiError(0, 'The router is not reachable.', 'unreachable', []);
    };
    render(<SettingsForm config={response} onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(/Not saved: The router is not reachable/)).toBeInTheDocument();
  });

  test('a save refused because config.json changed on disk keeps the edit and carries it over to the file', async () => {
    const user = userEvent.setup();
    const revisions: string[] = [];
    const onSave = async (_config: ConfigInput, revision: string): Promise<ConfigSaveResponse> => {
      revisions.push(revision);
      throw new ApiError(409, 'changed on disk', 'config_changed_on_disk', []);
    };
    const { rerender } = render(<SettingsForm config={response} onSave={onSave} />);
    const maxAttempts = screen.getByLabelText(/Max attempts/);
    await user.clear(maxAttempts);
    await user.type(maxAttempts, '9');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(revisions).toEqual(['rev-1']);
    expect(screen.getByText(`Not saved: ${CHANGED_ON_DISK}`)).toBeInTheDocument();

    // The dashboard refetches the config: the file changed the same field, so the form says so and keeps 9.
    const failover = { ...defaults.router?.failover, maxAttempts: 2 };
    const onDisk = { ...defaults, router: { ...defaults.router, failover } };
    rerender(<SettingsForm config={{ ...response, effective: onDisk, revision: 'rev-2' }} onSave={onSave} />);
    expect(screen.getByLabelText(/Max attempts/)).toHaveValue('9');
    expect(screen.getByText('unsaved changes')).toBeInTheDocument();
    expect(screen.queryByText(`Not saved: ${CHANGED_ON_DISK}`)).toBeNull();
    const notice = screen.getByText(/changed on disk while you were editing/).closest('.notice');
    expect(notice).toHaveTextContent(
      'Changed on disk as well, your value kept: Max attempts (the file has 2).',
    );

    // The next save goes with the revision the form now shows.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(revisions).toEqual(['rev-1', 'rev-2']);
  });

  test('a change on disk under unsaved edits: untouched fields follow the file, edited ones stay', async () => {
    const user = userEvent.setup();
    const { sent, onSave } = fakeServer();
    const { rerender } = render(<SettingsForm config={response} onSave={onSave} />);
    const maxAttempts = screen.getByLabelText(/Max attempts/);
    await user.clear(maxAttempts);
    await user.type(maxAttempts, '9');

    const failover = { ...defaults.router?.failover, requestTimeoutMs: 8000 };
    const onDisk = { ...defaults, router: { ...defaults.router, failover } };
    rerender(<SettingsForm config={{ ...response, effective: onDisk, revision: 'rev-2' }} onSave={onSave} />);
    expect(screen.getByLabelText(/Max attempts/)).toHaveValue('9');
    expect(screen.getByLabelText(/Request timeout/)).toHaveValue('8000');
    expect(screen.getByText(/changed on disk while you were editing/)).toBeInTheDocument();
    expect(screen.queryByText(/Changed on disk as well/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(sent[0]?.router?.failover).toMatchObject({ maxAttempts: 9, requestTimeoutMs: 8000 });
    expect(screen.queryByText(/changed on disk while you were editing/)).toBeNull();
  });

  test('an edit after a save or a refusal clears what that save said', async () => {
    const user = userEvent.setup();
    const { onSave } = fakeServer();
    render(<SettingsForm config={response} onSave={onSave} />);
    const maxAttempts = screen.getByLabelText(/Max attempts/);
    await user.clear(maxAttempts);
    await user.type(maxAttempts, '7');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Applied live:')).toBeInTheDocument();
    await user.type(maxAttempts, '0');
    expect(screen.queryByText('Applied live:')).toBeNull();
  });

  test('edits carried over to a save of the JSON editor name that editor, not a change on disk', async () => {
    const user = userEvent.setup();
    const { onSave } = fakeServer();
    const { rerender } = render(<SettingsForm config={response} onSave={onSave} />);
    const maxAttempts = screen.getByLabelText(/Max attempts/);
    await user.clear(maxAttempts);
    await user.type(maxAttempts, '9');

    const failover = { ...defaults.router?.failover, maxAttempts: 2 };
    const saved = { ...defaults, router: { ...defaults.router, failover } };
    rerender(
      <SettingsForm
        config={{ ...response, effective: saved, revision: 'rev-2' }}
        onSave={onSave}
        savedBy="the JSON editor"
      />,
    );
    expect(screen.getByLabelText(/Max attempts/)).toHaveValue('9');
    const notice = screen.getByText(/saved config.json while you were editing here/).closest('.notice');
    expect(notice).toHaveTextContent(/^The JSON editor saved config.json while you were editing here/);
    expect(notice).toHaveTextContent(
      'Changed by the JSON editor as well, your value kept: Max attempts (the file has 2).',
    );
    expect(screen.queryByText(/changed on disk/)).toBeNull();
  });

  test('unsaved edits outlast the form leaving the screen (another view), and follow the file meanwhile', async () => {
    const user = userEvent.setup();
    const { onSave, sent } = fakeServer();
    const first = render(<SettingsForm config={response} onSave={onSave} />);
    const maxAttempts = screen.getByLabelText(/Max attempts/);
    await user.clear(maxAttempts);
    await user.type(maxAttempts, '9');
    first.unmount();

    // Back on Settings after the file changed on disk: the edit is still there, unsaved, carried over.
    const failover = { ...defaults.router?.failover, requestTimeoutMs: 8000 };
    const onDisk = { ...defaults, router: { ...defaults.router, failover } };
    render(<SettingsForm config={{ ...response, effective: onDisk, revision: 'rev-2' }} onSave={onSave} />);
    expect(screen.getByLabelText(/Max attempts/)).toHaveValue('9');
    expect(screen.getByLabelText(/Request timeout/)).toHaveValue('8000');
    expect(screen.getByText('unsaved changes')).toBeInTheDocument();
    expect(screen.getByText(/changed on disk while you were editing/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(sent[0]?.router?.failover).toMatchObject({ maxAttempts: 9, requestTimeoutMs: 8000 });
  });
});
