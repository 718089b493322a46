import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultStateDir, resolveStateDir } from './state-dir.js';

test('linux: XDG_CONFIG_HOME, else ~/.config', () => {
  assert.equal(defaultStateDir('linux', {}, '/home/ada'), '/home/ada/.config/fcm-router');
  assert.equal(defaultStateDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ada'), '/xdg/fcm-router');
  assert.equal(
    defaultStateDir('linux', { XDG_CONFIG_HOME: '' }, '/home/ada'),
    '/home/ada/.config/fcm-router',
  );
  assert.equal(defaultStateDir('freebsd', {}, '/home/ada'), '/home/ada/.config/fcm-router');
});

test('macOS: ~/Library/Application Support, whatever XDG says', () => {
  assert.equal(
    defaultStateDir('darwin', { XDG_CONFIG_HOME: '/xdg' }, '/Users/ada'),
    '/Users/ada/Library/Application Support/fcm-router',
  );
});

test('windows: %APPDATA% (any case), else ~\\AppData\\Roaming', () => {
  assert.equal(
    defaultStateDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada'),
    'C:\\Users\\ada\\AppData\\Roaming\\fcm-router',
  );
  assert.equal(defaultStateDir('win32', { AppData: 'D:\\roam' }, 'C:\\Users\\ada'), 'D:\\roam\\fcm-router');
  assert.equal(
    defaultStateDir('win32', {}, 'C:\\Users\\ada'),
    'C:\\Users\\ada\\AppData\\Roaming\\fcm-router',
  );
});

test('resolveStateDir: explicit option, then FCM_ROUTER_STATE_DIR, then the default', () => {
  const env = { FCM_ROUTER_STATE_DIR: '/env/state' };
  const base = { platform: 'linux' as const, homedir: '/home/ada' };
  assert.equal(resolveStateDir({ ...base, env, stateDir: '/opt/state' }), '/opt/state');
  assert.equal(resolveStateDir({ ...base, env }), '/env/state');
  assert.equal(resolveStateDir({ ...base, env, stateDir: '' }), '/env/state');
  assert.equal(resolveStateDir({ ...base, env: {} }), '/home/ada/.config/fcm-router');
});
