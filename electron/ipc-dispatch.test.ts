import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createIpcDispatcher,
  IpcRefusedError,
  registerIpcHandlers,
  type IpcRegistry,
} from './ipc-dispatch.js';
import { IPC_CHANNELS, type IpcHandlers } from './ipc-contract.js';

function setup() {
  const calls: string[] = [];
  let loginItem = false;
  let notifications = true;
  const handlers: IpcHandlers = {
    'fcm-desktop:get-app-version': () => '0.1.0',
    'fcm-desktop:get-start-at-login': async () => loginItem,
    'fcm-desktop:set-start-at-login': async (enabled) => {
      calls.push(`login ${enabled}`);
      loginItem = enabled;
      return loginItem;
    },
    'fcm-desktop:get-notifications-enabled': () => notifications,
    'fcm-desktop:set-notifications-enabled': (enabled) => {
      calls.push(`notify ${enabled}`);
      notifications = enabled;
      return notifications;
    },
  };
  let origin: string | null = 'http://127.0.0.1:19280';
  const dispatch = createIpcDispatcher(handlers, () => origin);
  return { dispatch, calls, setOrigin: (o: string | null) => (origin = o) };
}

const dashboard = { url: 'http://127.0.0.1:19280/#/settings', isMainFrame: true };

test('a valid call from the dashboard runs its handler', async () => {
  const { dispatch, calls } = setup();
  assert.equal(await dispatch('fcm-desktop:get-app-version', dashboard, []), '0.1.0');
  assert.equal(await dispatch('fcm-desktop:set-start-at-login', dashboard, [true]), true);
  assert.equal(await dispatch('fcm-desktop:get-start-at-login', dashboard, []), true);
  assert.equal(await dispatch('fcm-desktop:set-notifications-enabled', dashboard, [false]), false);
  assert.deepEqual(calls, ['login true', 'notify false']);
});

test('bad arguments are refused before the handler runs', async () => {
  const { dispatch, calls } = setup();
  for (const args of [['yes'], [], [true, true], [null], 'true', { 0: true }]) {
    await assert.rejects(
      dispatch('fcm-desktop:set-start-at-login', dashboard, args),
      IpcRefusedError,
      JSON.stringify(args),
    );
  }
  assert.deepEqual(calls, []);
});

test('foreign senders, iframes and unknown channels are refused', async () => {
  const { dispatch, calls, setOrigin } = setup();
  const refuse = (channel: string, sender: { url: string | null; isMainFrame: boolean }) =>
    assert.rejects(dispatch(channel, sender, [true]), (error: unknown) => error instanceof IpcRefusedError);
  await refuse('fcm-desktop:set-start-at-login', { url: 'https://evil.example/', isMainFrame: true });
  await refuse('fcm-desktop:set-start-at-login', {
    url: 'http://127.0.0.1:19280.evil.example/',
    isMainFrame: true,
  });
  await refuse('fcm-desktop:set-start-at-login', { url: 'http://127.0.0.1:19280/', isMainFrame: false });
  await refuse('fcm-desktop:set-start-at-login', { url: null, isMainFrame: true });
  await refuse('fcm-desktop:open-shell', dashboard);
  setOrigin(null);
  await refuse('fcm-desktop:set-start-at-login', dashboard);
  assert.deepEqual(calls, []);
});

test('a handler result outside the contract is an error, not passed through', async () => {
  const handlers = {
    'fcm-desktop:get-app-version': () => 42,
  } as unknown as IpcHandlers;
  const dispatch = createIpcDispatcher(handlers, () => 'http://127.0.0.1:19280');
  await assert.rejects(dispatch('fcm-desktop:get-app-version', dashboard, []));
});

test('every channel of the contract is registered once, and a call goes through the same checks', async () => {
  const listeners = new Map<string, Parameters<IpcRegistry['handle']>[1]>();
  const registry: IpcRegistry = { handle: (channel, listener) => void listeners.set(channel, listener) };
  const handlers: IpcHandlers = {
    'fcm-desktop:get-app-version': () => '0.1.0',
    'fcm-desktop:get-start-at-login': () => false,
    'fcm-desktop:set-start-at-login': (enabled) => enabled,
    'fcm-desktop:get-notifications-enabled': () => true,
    'fcm-desktop:set-notifications-enabled': (enabled) => enabled,
  };
  registerIpcHandlers(registry, handlers, () => 'http://127.0.0.1:19280');
  assert.deepEqual([...listeners.keys()].sort(), Object.keys(IPC_CHANNELS).sort());
  const version = listeners.get('fcm-desktop:get-app-version');
  const top = { senderFrame: { url: 'http://127.0.0.1:19280/', parent: null } };
  assert.equal(await version?.(top), '0.1.0');
  const framed = { senderFrame: { url: 'http://127.0.0.1:19280/', parent: {} } };
  await assert.rejects(Promise.resolve(version?.(framed)), IpcRefusedError);
  await assert.rejects(Promise.resolve(version?.({ senderFrame: null })), IpcRefusedError);
  const set = listeners.get('fcm-desktop:set-start-at-login');
  await assert.rejects(Promise.resolve(set?.(top, 'yes')), IpcRefusedError);
});
