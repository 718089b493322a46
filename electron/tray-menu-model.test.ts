import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentBaseUrl, buildTrayMenu, type MenuItemModel, type TrayMenuInput } from './tray-menu-model.js';
import type { TrayView } from './tray-health.js';

const view: TrayView = {
  colour: 'amber',
  tooltip: 'fcm-router — 1/2 models ready',
  statusLine: '1 of 2 models ready',
  menuModels: [
    { key: 'a/x', glyph: '●', label: 'a/x — ready' },
    { key: 'b/y', glyph: '○', label: 'b/y — open until 14:05' },
  ],
  moreModels: 3,
};

const base: TrayMenuInput = {
  view,
  mode: 'owned',
  paused: false,
  routerUrl: 'http://127.0.0.1:19280',
  nextFreePort: null,
  startAtLogin: false,
};

const labels = (items: MenuItemModel[]): string[] =>
  items.map((i) =>
    i.type === 'separator'
      ? '---'
      : i.type === 'checkbox'
        ? `[${i.checked ? 'x' : ' '}] ${i.label}`
        : i.label,
  );

test('the owned menu: status, models with glyphs, actions, start at login, quit', () => {
  assert.deepEqual(labels(buildTrayMenu(base)), [
    '1 of 2 models ready',
    '---',
    '●  a/x — ready',
    '○  b/y — open until 14:05',
    '+3 more in the dashboard',
    '---',
    'Open dashboard',
    'Copy agent base URL (http://127.0.0.1:19280/v1)',
    'Pause routing',
    '---',
    '[ ] Start at login',
    '---',
    'Quit fcm-router',
  ]);
});

test('paused shows Resume; attached says so and quits without stopping the daemon', () => {
  const items = buildTrayMenu({ ...base, paused: true, mode: 'attached', startAtLogin: true });
  const all = labels(items);
  assert.ok(all.includes('Resume routing'));
  assert.ok(!all.includes('Pause routing'));
  assert.ok(all.includes('Showing the fcm-router already running at http://127.0.0.1:19280'));
  assert.ok(all.includes('[x] Start at login'));
  assert.equal(all.at(-1), 'Quit (the router keeps running)');
});

test('without a router, the router actions are disabled and the next free port is offered', () => {
  const items = buildTrayMenu({
    ...base,
    mode: 'none',
    routerUrl: null,
    nextFreePort: 19281,
    startAtLogin: null,
    view: { ...view, statusLine: 'Port 19280 is in use by another program', menuModels: [], moreModels: 0 },
  });
  const byAction = new Map(
    items.flatMap((i) => (i.type === 'action' || i.type === 'checkbox' ? [[i.action, i]] : [])),
  );
  assert.equal(byAction.get('open-dashboard')?.enabled, false);
  assert.equal(byAction.get('copy-base-url')?.enabled, false);
  assert.equal(byAction.get('pause')?.enabled, false);
  assert.equal(byAction.get('use-next-port')?.label, 'Use port 19281 instead');
  assert.equal(byAction.get('use-next-port')?.enabled, true);
  assert.equal(byAction.get('toggle-start-at-login')?.enabled, false);
  assert.equal(byAction.get('quit')?.enabled, true);
});

test('an ampersand in a model name is not taken as a menu accelerator', () => {
  const items = buildTrayMenu({
    ...base,
    view: { ...view, menuModels: [{ key: 'a/b&c', glyph: '●', label: 'a/b&c — ready' }] },
  });
  assert.ok(labels(items).includes('●  a/b&&c — ready'));
});

test('agentBaseUrl appends /v1 once', () => {
  assert.equal(agentBaseUrl('http://127.0.0.1:19280'), 'http://127.0.0.1:19280/v1');
  assert.equal(agentBaseUrl('http://127.0.0.1:19280/'), 'http://127.0.0.1:19280/v1');
});
