import { act, renderHook } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { ConfigInput, ConfigResponse, ConfigSaveResponse } from '../../../../router/api-types.js';
import { ApiError } from '../../api/client.js';
import { DEFAULT_CONFIG } from '../../test-support/default-config.js';
import { CHECK_AFTER_MS, JSON_CHANGED_ON_DISK, useConfigJson } from './use-config-json.js';

const onFile: ConfigInput = {
  sets: { default: ['up/m1'] },
  router: { failover: { maxAttempts: 6 } },
};

const response = (config: ConfigInput, revision: string): ConfigResponse => ({
  config,
  effective: DEFAULT_CONFIG,
  defaults: DEFAULT_CONFIG,
  path: '/tmp/config.json',
  revision,
  fileProblem: null,
});

const check = async () => ({ valid: true, issues: [], keysDropped: [] });

function editor(onSave: (config: ConfigInput, revision: string) => Promise<ConfigSaveResponse>) {
  return renderHook(({ config }) => useConfigJson(config, onSave, check), {
    initialProps: { config: response(onFile, 'rev-1') },
  });
}

const refused = async (): Promise<ConfigSaveResponse> => {
  throw new ApiError(409, 'changed on disk', 'config_changed_on_disk', []);
};

test('unsaved text is carried over to a file changed on disk, and the values both changed are named', () => {
  const { result, rerender } = editor(refused);
  act(() => result.current.setText(result.current.text.replace('"maxAttempts": 6', '"maxAttempts": 9')));
  const onDisk: ConfigInput = {
    sets: { default: ['up/m1', 'up/m2'] },
    router: { failover: { maxAttempts: 3 } },
  };
  rerender({ config: response(onDisk, 'rev-2') });
  const now = JSON.parse(result.current.text) as ConfigInput;
  expect(now).toEqual({ sets: { default: ['up/m1', 'up/m2'] }, router: { failover: { maxAttempts: 9 } } });
  expect(result.current.carried).toEqual({ conflicts: ['router.failover.maxAttempts'], by: null });
  expect(result.current.dirty).toBe(true);
});

test('text that is not JSON stays as typed; a save is refused and the text kept, then carried over once it parses', async () => {
  const revisions: string[] = [];
  const { result, rerender } = editor(async (_config, revision) => {
    revisions.push(revision);
    return refused();
  });
  const broken = result.current.text.replace('"maxAttempts": 6', '"maxAttempts": 9,');
  act(() => result.current.setText(broken));
  const onDisk: ConfigInput = { ...onFile, activeSet: 'default' };
  rerender({ config: response(onDisk, 'rev-2') });
  expect(result.current.text).toBe(broken);

  const fixed = broken.replace('"maxAttempts": 9,', '"maxAttempts": 9');
  act(() => result.current.setText(fixed));
  expect(JSON.parse(result.current.text)).toEqual({ ...onDisk, router: { failover: { maxAttempts: 9 } } });
  expect(result.current.carried).toEqual({ conflicts: [], by: null });
  await act(() => result.current.save());
  expect(revisions).toEqual(['rev-2']);
  expect(result.current.failure).toBe(JSON_CHANGED_ON_DISK);
  expect(JSON.parse(result.current.text)).toMatchObject({ router: { failover: { maxAttempts: 9 } } });
});

test('an untouched text follows the file; an edit clears what the last save said', async () => {
  const saved: ConfigInput[] = [];
  const { result, rerender } = editor(async (config) => {
    saved.push(config);
    return { ok: true, changed: ['router.failover.maxAttempts'], config, revision: 'rev-3' };
  });
  rerender({ config: response({ ...onFile, activeSet: 'default' }, 'rev-2') });
  expect(JSON.parse(result.current.text)).toEqual({ ...onFile, activeSet: 'default' });
  expect(result.current.carried).toBeNull();

  act(() => result.current.setText(result.current.text.replace('"maxAttempts": 6', '"maxAttempts": 7')));
  await act(() => result.current.save());
  expect(result.current.changes).not.toBeNull();
  // The dashboard fetches the config again: the revision the save wrote.
  rerender({ config: response(saved[0] as ConfigInput, 'rev-3') });
  expect(result.current.changes).not.toBeNull();
  act(() => result.current.setText(result.current.text.replace('"maxAttempts": 7', '"maxAttempts": 8')));
  expect(result.current.changes).toBeNull();
});

test('a text whose save would drop a provider’s keys says so, only while the text is the one checked', async () => {
  vi.useFakeTimers();
  try {
    const dropping = async (value: unknown) => ({
      valid: true,
      issues: [],
      keysDropped: JSON.stringify(value).includes('elsewhere') ? ['up'] : [],
    });
    const { result } = renderHook(() => useConfigJson(response(onFile, 'rev-1'), refused, dropping));
    const moved = result.current.text.replace('"default"', '"elsewhere"');
    act(() => result.current.setText(moved));
    expect(result.current.keysDropped).toEqual([]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CHECK_AFTER_MS);
    });
    expect(result.current.keysDropped).toEqual(['up']);
    act(() => result.current.setText(`${moved} `));
    expect(result.current.keysDropped, 'an edit since the check').toEqual([]);
  } finally {
    vi.useRealTimers();
  }
});

test('unsaved text carried over to a save of the Settings form names the form, not a change on disk', () => {
  const { result, rerender } = renderHook(
    ({ config, savedBy }: { config: ConfigResponse; savedBy: string | null }) =>
      useConfigJson(config, refused, check, savedBy),
    { initialProps: { config: response(onFile, 'rev-1'), savedBy: null as string | null } },
  );
  act(() => result.current.setText(result.current.text.replace('"default"', '"main"')));
  const saved: ConfigInput = { ...onFile, router: { failover: { maxAttempts: 5 } } };
  rerender({ config: response(saved, 'rev-2'), savedBy: 'the Settings form' });
  expect(JSON.parse(result.current.text)).toEqual({ ...saved, sets: { main: ['up/m1'] } });
  expect(result.current.carried).toEqual({ conflicts: [], by: 'the Settings form' });
});

test('unsaved text outlasts the editor leaving the screen, and is carried over to the file as it is by then', () => {
  const mount = (config: ConfigResponse) =>
    renderHook(() => useConfigJson(config, refused, check, null, 'config-json'));
  const first = mount(response(onFile, 'rev-1'));
  act(() =>
    first.result.current.setText(first.result.current.text.replace('"maxAttempts": 6', '"maxAttempts": 9')),
  );
  first.unmount();

  const again = mount(response({ ...onFile, activeSet: 'default' }, 'rev-2'));
  expect(JSON.parse(again.result.current.text)).toEqual({
    ...onFile,
    activeSet: 'default',
    router: { failover: { maxAttempts: 9 } },
  });
  expect(again.result.current.dirty).toBe(true);
  expect(again.result.current.carried).toEqual({ conflicts: [], by: null });
});
