import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../router/index.js';
import { recordingLogger } from '../router/test-support/state-test-helpers.js';
import { TestClock } from '../router/test-support/test-clock.js';
import { DesktopShell, type ShellDeps } from './desktop-shell.js';
import type { LoginItem } from './login-item.js';
import type { Notice } from './notification-throttle.js';
import { PREFS_DEFAULTS, type DesktopPrefs, type PrefsStore } from './prefs-schema.js';
import type { ConnectResult } from './router-connect.js';
import { fakeSource, type FakeSource } from './testing/fake-source.js';
import { model, snapshot } from './testing/fixtures.js';
import type { MenuItemModel } from './tray-menu-model.js';

/** Preferences in memory. */
function memoryPrefs(start: Partial<DesktopPrefs> = {}): PrefsStore & { values: DesktopPrefs } {
  const values: DesktopPrefs = { ...PREFS_DEFAULTS, ...start };
  return {
    values,
    get: (key) => values[key],
    set: (key, value) => {
      values[key] = value;
    },
  };
}

/** A login item whose setting the test reads. */
function memoryLoginItem(): LoginItem & { enabled: boolean } {
  const item = {
    enabled: false,
    get: async () => item.enabled,
    set: async (enabled: boolean) => (item.enabled = enabled),
  };
  return item;
}

interface Setup {
  shell: DesktopShell;
  time: TestClock;
  prefs: ReturnType<typeof memoryPrefs>;
  logger: ReturnType<typeof recordingLogger>;
  shown: string[];
  notices: Notice[];
  menus: (readonly MenuItemModel[])[];
  connects: number[];
}

/** A shell whose connect answers with `results`, one per call (the last one again after that). */
function setUp(results: (ConnectResult | Error)[], deps: Partial<ShellDeps> = {}): Setup {
  const time = new TestClock();
  const prefs = memoryPrefs();
  const logger = recordingLogger();
  const shown: string[] = [];
  const notices: Notice[] = [];
  const connects: number[] = [];
  const shell = new DesktopShell({
    prefs,
    loginItem: null,
    time,
    logger,
    connect: async (port) => {
      connects.push(port);
      const result = results[Math.min(connects.length, results.length) - 1];
      if (result === undefined || result instanceof Error) throw result ?? new Error('no result');
      return result;
    },
    showWindow: (url) => shown.push(url),
    notify: (notice) => notices.push(notice),
    ...deps,
  });
  const menus: (readonly MenuItemModel[])[] = [];
  shell.onRender((_view, menu) => menus.push(menu));
  return { shell, time, prefs, logger, shown, notices, menus, connects };
}

const labels = (menu: readonly MenuItemModel[] | undefined): string[] =>
  (menu ?? []).flatMap((item) => ('label' in item ? [item.label] : []));

function running(): FakeSource {
  return fakeSource(snapshot([model('a/x')]));
}

test('a router found is shown: its origin allowed, the log says so, the menu offers its actions', async () => {
  const source = running();
  const { shell, time, logger, menus, shown } = setUp([{ kind: 'connected', source }]);
  assert.equal(shell.routerOrigin, null);
  await shell.connect(19280);
  await time.advanceSettling(0);
  assert.equal(shell.routerOrigin, 'http://127.0.0.1:19280');
  assert.ok(
    logger.lines.includes('info fcm-router: serving http://127.0.0.1:19280'),
    logger.lines.join('\n'),
  );
  assert.ok(labels(menus.at(-1)).includes('Pause routing'));
  shell.openDashboard();
  assert.deepEqual(shown, [source.pageUrl]);
});

test('a taken port is shown with the next free one; choosing it keeps it and connects there', async () => {
  const source = running();
  const { shell, time, prefs, menus, connects } = setUp([
    { kind: 'port-taken', port: 19280, nextFreePort: 19281, reason: 'another program' },
    { kind: 'connected', source },
  ]);
  await shell.connect(19280);
  assert.equal(shell.status.status.kind, 'port-taken');
  assert.ok(labels(menus.at(-1)).includes('Use port 19281 instead'));
  shell.trayActions({ copyText: () => undefined, quit: () => undefined })['use-next-port']();
  await time.advanceSettling(0);
  assert.deepEqual(connects, [19280, 19281]);
  assert.equal(prefs.values.port, 19281);
  assert.equal(shell.status.source, source);
  assert.ok(!labels(menus.at(-1)).includes('Use port 19281 instead'), 'no longer offered');
});

test('a state folder held by another fcm-router, or a router that cannot start, is shown as stopped', async () => {
  const taken = setUp([{ kind: 'state-dir-taken', reason: 'fcm-router 0.0.1 runs on this folder' }]);
  await taken.shell.connect(19280);
  assert.deepEqual(taken.shell.status.status, {
    kind: 'stopped',
    reason: 'fcm-router 0.0.1 runs on this folder',
  });

  const invalid = setUp([new ConfigError('/state/config.json', [{ path: 'sets', message: 'required' }])]);
  await invalid.shell.connect(19280);
  assert.deepEqual(invalid.shell.status.status, { kind: 'stopped', reason: 'invalid config.json' });
  assert.equal(invalid.shell.routerOrigin, null);
  assert.match(invalid.logger.lines.join('\n'), /error fcm-router: the router did not start: invalid config/);
  invalid.shell.openDashboard();
  assert.deepEqual(invalid.shown, [], 'no dashboard without a router');
});

test('the tray’s actions: copy the agents’ base URL, pause and resume, quit', async () => {
  const source = running();
  const { shell, time } = setUp([{ kind: 'connected', source }]);
  await shell.connect(19280);
  const copied: string[] = [];
  let quits = 0;
  const actions = shell.trayActions({ copyText: (text) => copied.push(text), quit: () => (quits += 1) });
  actions['copy-base-url']();
  assert.deepEqual(copied, ['http://127.0.0.1:19280/v1']);
  actions.pause();
  await time.advanceSettling(1000);
  assert.equal(source.state.paused, true);
  assert.equal(shell.status.view.colour, 'red');
  actions.resume();
  await time.advanceSettling(1000);
  assert.equal(source.state.paused, false);
  actions.quit();
  assert.equal(quits, 1);
});

test('start at login: off where there is none; toggled from the tray and read back into the menu', async () => {
  const none = setUp([{ kind: 'connected', source: running() }]);
  await none.shell.readStartAtLogin();
  assert.equal(none.shell.startAtLogin, null);
  assert.equal(await none.shell.setStartAtLogin(true), false);

  const loginItem = memoryLoginItem();
  const { shell, menus, time } = setUp([{ kind: 'connected', source: running() }], { loginItem });
  await shell.readStartAtLogin();
  await shell.connect(19280);
  await time.advanceSettling(0);
  shell.trayActions({ copyText: () => undefined, quit: () => undefined })['toggle-start-at-login']();
  await time.advanceSettling(0);
  assert.equal(loginItem.enabled, true);
  const checkbox = menus.at(-1)?.find((item) => item.type === 'checkbox');
  assert.equal(checkbox?.type === 'checkbox' && checkbox.checked, true);
});

test('the first run asks once, with the agents’ base URL; a yes turns start at login on', async () => {
  const loginItem = memoryLoginItem();
  const { shell, prefs } = setUp([{ kind: 'connected', source: running() }], { loginItem });
  await shell.connect(19280);
  const asked: string[] = [];
  await shell.firstRun(async (url) => (asked.push(url), true));
  await shell.firstRun(async (url) => (asked.push(url), true));
  assert.deepEqual(asked, ['http://127.0.0.1:19280/v1']);
  assert.equal(prefs.values.firstRunSeen, true);
  assert.equal(loginItem.enabled, true);
});

test('what the dashboard may ask through the bridge reads and writes the preferences and the login item', async () => {
  const loginItem = memoryLoginItem();
  const { shell, prefs } = setUp([], { loginItem });
  const handlers = shell.ipcHandlers('1.2.3');
  assert.equal(await handlers['fcm-desktop:get-app-version'](), '1.2.3');
  assert.equal(await handlers['fcm-desktop:set-notifications-enabled'](false), false);
  assert.equal(prefs.values.notificationsEnabled, false);
  assert.equal(await handlers['fcm-desktop:set-start-at-login'](true), true);
  assert.equal(await handlers['fcm-desktop:get-start-at-login'](), true);
});

test('a trip notifies after the batch window, and the notification’s click opens the dashboard', async () => {
  const source = fakeSource(snapshot([model('a/x'), model('b/y')]));
  const clicks: (() => void)[] = [];
  const titles: string[] = [];
  const { shell, time, shown } = setUp([{ kind: 'connected', source }], {
    notify: (notice, onClick) => {
      titles.push(notice.title);
      clicks.push(onClick);
    },
  });
  await shell.connect(19280);
  await time.advanceSettling(0);
  const tripped = model('a/x', { state: 'OPEN', openUntil: time.now() + 60_000, tripCount: 1 });
  source.state = snapshot([tripped, model('b/y')]);
  source.emit({ type: 'breaker', model: tripped });
  await time.advanceSettling(1000);
  assert.deepEqual(titles, [], 'not before the batch window');
  await time.advanceSettling(1000);
  assert.deepEqual(titles, ['Model tripped: a/x']);
  clicks[0]?.();
  assert.deepEqual(shown, [source.pageUrl]);
});

test('closing stops following the router and closes the source with the grace given', async () => {
  const source = running();
  const closed: (number | undefined)[] = [];
  source.close = async (options) => void closed.push(options?.graceMs);
  const { shell } = setUp([{ kind: 'connected', source }]);
  await shell.connect(19280);
  await shell.close(1000);
  assert.deepEqual(closed, [1000]);
  assert.equal(source.listeners(), 0);
});
