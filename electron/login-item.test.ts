import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createLoginItem,
  launchedAtLogin,
  launchTargetFor,
  loginItemForProcess,
  type LoginItemApi,
} from './login-item.js';

/** A stand-in for Electron's login-item calls that records them (Electron is never loaded in tests). */
function fakeApi(): LoginItemApi & { calls: unknown[]; openAtLogin: boolean } {
  const api = {
    calls: [] as unknown[],
    openAtLogin: false,
    getLoginItemSettings(options?: unknown) {
      api.calls.push(['get', options]);
      return { openAtLogin: api.openAtLogin, wasOpenedAtLogin: false };
    },
    setLoginItemSettings(settings: { openAtLogin?: boolean }) {
      api.calls.push(['set', settings]);
      api.openAtLogin = settings.openAtLogin === true;
    },
  };
  return api;
}

const target = { execPath: 'C:\\fcm\\fcm-router.exe', args: ['--hidden'] };
const xdg = { env: {}, homedir: '/nonexistent' };

test('macOS uses Electron login items', async () => {
  const api = fakeApi();
  const item = createLoginItem({ platform: 'darwin', api, target, xdg });
  assert.ok(item);
  assert.equal(await item.get(), false);
  assert.equal(await item.set(true), true);
  assert.deepEqual(api.calls[1], ['set', { openAtLogin: true }]);
});

test('Windows passes the same path and args to set and get', async () => {
  const api = fakeApi();
  const item = createLoginItem({ platform: 'win32', api, target, xdg });
  assert.ok(item);
  assert.equal(await item.set(true), true);
  assert.deepEqual(api.calls, [
    ['set', { openAtLogin: true, path: target.execPath, args: ['--hidden'] }],
    ['get', { path: target.execPath, args: ['--hidden'] }],
  ]);
  assert.equal(await item.set(false), false);
});

test('Linux writes the XDG autostart entry and never calls Electron', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-login-'));
  try {
    const api = fakeApi();
    const item = createLoginItem({
      platform: 'linux',
      api,
      target: { execPath: '/usr/bin/fcm-router', args: ['--hidden'] },
      xdg: { env: { XDG_CONFIG_HOME: dir }, homedir: '/nonexistent' },
    });
    assert.ok(item);
    assert.equal(await item.get(), false);
    assert.equal(await item.set(true), true);
    assert.equal(await item.get(), true);
    assert.equal(await item.set(false), false);
    assert.deepEqual(api.calls, []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('unsupported platforms get no login item', () => {
  assert.equal(createLoginItem({ platform: 'aix', api: fakeApi(), target, xdg }), null);
});

test('launchedAtLogin: the --hidden argument, or macOS saying so', () => {
  const api = fakeApi();
  assert.equal(launchedAtLogin(['/usr/bin/fcm-router', '--hidden'], 'linux', api), true);
  assert.equal(launchedAtLogin(['/usr/bin/fcm-router'], 'linux', api), false);
  const mac: LoginItemApi = {
    ...api,
    getLoginItemSettings: () => ({ openAtLogin: true, wasOpenedAtLogin: true }),
  };
  assert.equal(launchedAtLogin(['/Applications/fcm-router.app'], 'darwin', mac), true);
});

test('launchTargetFor: packaged apps start themselves hidden; a dev Electron also gets the app folder', () => {
  assert.deepEqual(
    launchTargetFor({ platform: 'win32', env: {}, execPath: 'C:\\fcm\\fcm-router.exe', appPath: null }),
    {
      execPath: 'C:\\fcm\\fcm-router.exe',
      args: ['--hidden'],
    },
  );
  assert.deepEqual(
    launchTargetFor({ platform: 'darwin', env: {}, execPath: '/e/Electron', appPath: '/src/fcm' }),
    {
      execPath: '/e/Electron',
      args: ['/src/fcm', '--hidden'],
    },
  );
  assert.deepEqual(
    launchTargetFor({
      platform: 'linux',
      env: { APPIMAGE: '/apps/fcm.AppImage' },
      execPath: '/tmp/.mount/fcm',
      appPath: null,
    }),
    { execPath: '/apps/fcm.AppImage', args: ['--hidden'] },
  );
});

test('loginItemForProcess: this process, launched hidden, with the app folder only for a dev Electron', async () => {
  const run = {
    platform: 'win32' as const,
    env: {},
    execPath: 'C:\\fcm\\electron.exe',
    homedir: '/nonexistent',
  };
  const dev = fakeApi();
  await loginItemForProcess(dev, run, 'C:\\src\\fcm-router')?.set(true);
  assert.deepEqual(dev.calls[0], [
    'set',
    { openAtLogin: true, path: 'C:\\fcm\\electron.exe', args: ['C:\\src\\fcm-router', '--hidden'] },
  ]);
  const packaged = fakeApi();
  await loginItemForProcess(packaged, run, null)?.set(true);
  assert.deepEqual(packaged.calls[0], [
    'set',
    { openAtLogin: true, path: 'C:\\fcm\\electron.exe', args: ['--hidden'] },
  ]);
  assert.equal(loginItemForProcess(fakeApi(), { ...run, platform: 'aix' }, null), null);
});
