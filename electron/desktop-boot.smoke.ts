/**
 * The desktop boot smoke test: the BUILT main process (`npm run build:electron`, dist/electron/main.js)
 * booted under plain Node with a recording stand-in for `electron` (testing/fake-electron/), since no
 * Electron binary can run here. It checks the wiring the unit tests cannot: tray, window options, preload,
 * IPC channels, attach-or-own, the system's proxy (resolved again on waking), quitting with state flushed
 * (by the user, at system shutdown and at the end of a Windows session), notification clicks, a dashboard
 * that cannot load, and a boot that throws.
 * Run with `npm run test:desktop`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startRouter, type RouterHandle } from '../router/index.js';
import { generateIcons } from '../scripts/gen-icons.js';
import { startFakeUpstream, type FakeUpstream } from '../router/test-support/fake-upstream.js';
import { empty200, json } from '../router/test-support/upstream-behaviours.js';
import { BRIDGE_CHANNELS } from './ipc-contract.js';
import { PROVIDER_PROBE_URL } from './system-proxy.js';
import { BootedApp, ROOT } from './testing/booted-app.js';
import type { CallRecord } from './testing/fake-electron/protocol.js';
import { loadPreloadBridge } from './testing/preload-table.js';
import { WINDOW_BACKGROUND } from './window-theme.js';

interface Setup {
  dir: string;
  stateDir: string;
  upstream: FakeUpstream;
}

/** A temporary home and state dir whose config routes `up/bad` (answers no choices), then `up/good`. */
async function setUp(): Promise<Setup> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fcm-desktop-boot-'));
  const stateDir = path.join(dir, 'state');
  await mkdir(path.join(dir, 'home'), { recursive: true });
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const upstream = await startFakeUpstream();
  upstream.always('up/bad', empty200()).always('up/good', json('hello'));
  await writeFile(
    path.join(stateDir, 'config.json'),
    JSON.stringify({
      providers: { up: { baseUrl: upstream.baseUrl('up'), apiKey: 'k', models: ['bad', 'good'] } },
      sets: { default: ['up/bad', 'up/good'] },
      activeSet: 'default',
      router: { breaker: { failureThreshold: 1, initialCooldownMs: 600_000, maxCooldownMs: 600_000 } },
    }),
  );
  return { dir, stateDir, upstream };
}

async function tearDown(setup: Setup, ...apps: (BootedApp | null)[]): Promise<void> {
  for (const app of apps) await app?.kill();
  await setup.upstream.close();
  await rm(setup.dir, { recursive: true, force: true });
}

function launch(setup: Setup, env: Record<string, string> = {}, args: string[] = []): BootedApp {
  const home = path.join(setup.dir, 'home');
  return new BootedApp({
    args,
    records: path.join(setup.dir, `records-${Math.random().toString(36).slice(2)}.jsonl`),
    env: {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      FCM_ROUTER_STATE_DIR: setup.stateDir,
      FCM_ROUTER_PORT: '0',
      ...env,
    },
  });
}

async function chat(url: string, requestId: string): Promise<number> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

function readState(stateDir: string, name: string): string {
  const file = path.join(stateDir, name);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The labels of the last tray menu. */
function trayLabels(records: CallRecord[]): string[] {
  const menus = records.filter((r) => r.api === 'Tray' && r.call === 'setContextMenu');
  const items = (menus.at(-1)?.args[0] ?? []) as { label?: string }[];
  return items.flatMap((item) => (item.label ? [item.label] : []));
}

// The tray icons the app loads from build/icons (a build output, as `npm run icons` makes it).
before(() => generateIcons(path.join(ROOT, 'build', 'icons')));

const recordsAfter = (records: CallRecord[], seq: number): CallRecord[] => records.filter((r) => r.seq > seq);

/** The router's page at `url`: the window opens it as `/`, or as `/#token=…` when it knows the token. */
function isPageOf(loaded: unknown, url: string | undefined): boolean {
  return typeof loaded === 'string' && (loaded === `${url}/` || loaded.startsWith(`${url}/#token=`));
}

describe('the built app, owning its router', () => {
  let setup: Setup;
  let app: BootedApp;
  let url = '';

  before(async () => {
    setup = await setUp();
    // The system's proxy, as Chromium resolves it; the test's provider is on loopback, reached directly.
    app = launch(setup, { FCM_FAKE_SYSTEM_PROXY: 'PROXY 127.0.0.1:9; DIRECT' });
    url = (await app.waitForLine(/fcm-router: serving (http:\/\/\S+)/))[1] ?? '';
  });
  after(() => tearDown(setup, app));

  test('enables the sandbox before ready and takes the single-instance lock', () => {
    const records = app.records();
    const sandbox = records.find((r) => r.api === 'app' && r.call === 'enableSandbox');
    assert.deepEqual(sandbox?.args, [{ ready: false }]);
    assert.ok(records.some((r) => r.api === 'app' && r.call === 'requestSingleInstanceLock'));
  });

  test('puts a tray icon from an existing image, with a menu', async () => {
    const tray = app.calls('Tray', 'constructor')[0];
    const image = tray?.args[0] as { image: string; empty: boolean };
    assert.ok(image.image.startsWith(path.join(ROOT, 'build', 'icons', 'tray')), image.image);
    assert.equal(image.empty, false, `${image.image} is a PNG`);
    const labels = await app.waitFor('a tray menu with the router running', (records) => {
      const found = trayLabels(records);
      return found.includes('Pause routing') ? found : undefined;
    });
    for (const label of ['Open dashboard', 'Quit fcm-router']) assert.ok(labels.includes(label), label);
  });

  test('opens a hardened window, shown once ready, with the theme background', async () => {
    const created = await app.waitFor('the window', (records) =>
      records.find((r) => r.api === 'BrowserWindow' && r.call === 'constructor'),
    );
    const options = created.args[0] as {
      show: boolean;
      backgroundColor: string;
      webPreferences: Record<string, unknown>;
    };
    const prefs = options.webPreferences;
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.webviewTag, false);
    assert.ok(existsSync(String(prefs.preload)), `the preload ${String(prefs.preload)} exists`);
    assert.equal(options.show, false);
    assert.equal(options.backgroundColor, WINDOW_BACKGROUND.light);

    const shown = await app.waitFor('the window shown', (records) =>
      records.find((r) => /^BrowserWindow#/.test(r.api) && r.call === 'show'),
    );
    const ready = app.records().find((r) => r.call === 'ready-to-show');
    assert.ok(ready && ready.seq < shown.seq, 'shown after ready-to-show, not before');
    const loads = app.calls(/^webContents#/, 'loadURL');
    assert.equal(loads[0]?.args[0], `${url}/`);
  });

  test("registers exactly the preload's IPC channels, and answers only the dashboard", async () => {
    const preload = await loadPreloadBridge(path.join(ROOT, 'dist', 'electron', 'preload.cjs'));
    assert.equal(preload.exposedAs, 'fcmDesktop');
    assert.deepEqual(preload.channels, BRIDGE_CHANNELS);
    const handled = app.calls('ipcMain', 'handle').map((r) => String(r.args[0]));
    assert.deepEqual(handled.sort(), Object.values(preload.channels).sort());

    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
      .version;
    const invoke = (senderUrl: string, isMainFrame = true): Promise<unknown> =>
      app.command({
        cmd: 'invoke',
        channel: 'fcm-desktop:get-app-version',
        args: [],
        senderUrl,
        isMainFrame,
      });
    assert.equal(await invoke(`${url}/`), version);
    await assert.rejects(invoke('https://example.com/'), /not the dashboard/);
    await assert.rejects(invoke(`${url}/`, false), /not the dashboard/);
  });

  test('runs its own router on the state dir', async () => {
    const daemon = JSON.parse(readState(setup.stateDir, 'daemon.json')) as { pid: number; url: string };
    assert.equal(daemon.pid, app.pid);
    assert.equal(daemon.url, url);
    const health = (await (await fetch(`${url}/health`)).json()) as { pid: number };
    assert.equal(health.pid, app.pid);
  });

  test('gives its router the system’s proxy for providers, its environment naming none', async () => {
    assert.deepEqual(app.calls('session', 'resolveProxy')[0]?.args, [PROVIDER_PROBE_URL]);
    await app.waitForLine(
      /calls to https:\/\/ providers go through the proxy http:\/\/127\.0\.0\.1:9, http:\/\/ ones directly/,
    );
  });

  test('resolves the system’s proxy again when the machine resumes or the screen unlocks', async () => {
    for (const event of ['resume', 'unlock-screen']) {
      const before = app.calls('session', 'resolveProxy').length;
      await app.command({ cmd: 'emit', target: 'powerMonitor', event });
      const asked = await app.waitFor(`the proxy resolved again on ${event}`, (records) => {
        const calls = records.filter((r) => r.api === 'session' && r.call === 'resolveProxy');
        return calls.length > before ? calls.at(-1) : undefined;
      });
      assert.deepEqual(asked.args, [PROVIDER_PROBE_URL]);
    }
  });

  test('keeps a shown notification until it is clicked, and the click opens the dashboard', async () => {
    assert.equal(await chat(url, 'smoke-trip'), 200);
    const shown = await app.waitFor('a notification shown', (records) =>
      records.find((r) => /^Notification#/.test(r.api) && r.call === 'show'),
    );
    const before = app.records().at(-1)?.seq ?? 0;
    // A garbage collection runs first: a notification the app did not keep would be gone by now.
    assert.deepEqual(await app.command({ cmd: 'click-notification', index: 0 }), { clicked: true });
    const afterClick = recordsAfter(app.records(), before);
    assert.ok(
      afterClick.some((r) => /^BrowserWindow#/.test(r.api) && r.call === 'show'),
      `the click on ${shown.api} showed the dashboard`,
    );
  });

  test('quits with its state flushed and its router stopped', async () => {
    assert.equal(await chat(url, 'smoke-last-before-quit'), 200);
    app.tell({ cmd: 'quit' });
    assert.deepEqual(await app.exited, { code: 0, signal: null });
    assert.match(readState(setup.stateDir, 'history.json'), /smoke-last-before-quit/);
    assert.match(readState(setup.stateDir, 'breakers.json'), /up\/bad/);
    assert.equal(existsSync(path.join(setup.stateDir, 'daemon.json')), false, 'daemon.json removed');
    await assert.rejects(fetch(`${url}/health`));
    assert.ok(app.calls('Tray', 'destroy').length === 1, 'tray removed');
    assert.deepEqual(app.calls('process', 'unhandledRejection'), []);
  });
});

describe('the built app, next to a daemon', () => {
  let setup: Setup;
  let daemon: RouterHandle | null = null;
  let app: BootedApp | null = null;

  before(async () => {
    setup = await setUp();
  });
  after(async () => {
    await daemon?.stop({ graceMs: 100 });
    await tearDown(setup, app);
  });

  test('attaches to the daemon running on its state dir, shows a page that retries when it goes away, and leaves it running on quit', async () => {
    daemon = await startRouter({ port: 0, stateDir: setup.stateDir, env: {}, persistDebounceMs: 10 });
    const port = daemon.port;
    app = launch(setup);
    const attached = (await app.waitForLine(/fcm-router: (serving|attached to) (http:\/\/\S+)/))[0];
    assert.equal(attached, `fcm-router: attached to ${daemon.url}`);
    const labels = await app.waitFor('the attached tray menu', (records) => {
      const found = trayLabels(records);
      return found.includes('Quit (the router keeps running)') ? found : undefined;
    });
    assert.ok(labels.some((label) => label.includes(`already running at ${daemon?.url}`)));
    await app.waitFor('the dashboard loaded', (records) =>
      records.find((r) => r.call === 'did-finish-load' && isPageOf(r.args[0], daemon?.url)),
    );

    // The daemon stops: reloading the dashboard fails, and a local page says so and retries.
    await daemon.stop({ graceMs: 100 });
    daemon = null;
    const mark = app.records().at(-1)?.seq ?? 0;
    await app.command({ cmd: 'reload-window' });
    const page = await app.waitFor('the retry page', (records) =>
      recordsAfter(records, mark).find((r) => r.call === 'loadURL' && String(r.args[0]).startsWith('data:')),
    );
    const html = decodeURIComponent(String(page.args[0]).replace(/^data:text\/html;charset=utf-8,/, ''));
    assert.match(html, new RegExp(`http://127\\.0\\.0\\.1:${port}/`));
    assert.match(html, /ERR_CONNECTION_REFUSED/);

    // It comes back on the same port: the retry loads the dashboard again.
    daemon = await startRouter({ port, stateDir: setup.stateDir, env: {}, persistDebounceMs: 10 });
    await app.waitFor('the dashboard loaded again', (records) =>
      recordsAfter(records, page.seq).find(
        (r) => r.call === 'did-finish-load' && isPageOf(r.args[0], daemon?.url),
      ),
    );

    app.tell({ cmd: 'quit' });
    assert.deepEqual(await app.exited, { code: 0, signal: null });
    const health = (await (await fetch(`${daemon.url}/health`)).json()) as { pid: number };
    assert.equal(health.pid, process.pid, 'the daemon keeps running');
  });
});

describe('the built app at the end of a session', () => {
  for (const [name, target, event] of [
    ['the system shuts down (powerMonitor)', 'powerMonitor', 'shutdown'],
    ['the Windows session ends', 'sessionWatcher', 'session-end'],
  ] as const) {
    test(`flushes its state and quits when ${name}`, async () => {
      const setup = await setUp();
      const windows = target === 'sessionWatcher';
      // On Windows, started at login: no dashboard window was ever opened, the hidden watcher still hears it.
      const app = windows ? launch(setup, { FAKE_ELECTRON_PLATFORM: 'win32' }, ['--hidden']) : launch(setup);
      try {
        const url = (await app.waitForLine(/fcm-router: serving (http:\/\/\S+)/))[1] ?? '';
        if (windows) {
          const watcher = app.calls('BaseWindow', 'constructor')[0];
          assert.equal((watcher?.args[0] as { show?: boolean } | undefined)?.show, false, 'a hidden watcher');
          assert.equal(app.calls('BrowserWindow', 'constructor').length, 0, 'no dashboard window');
        } else {
          await app.waitFor('the window', (records) => records.find((r) => r.call === 'ready-to-show'));
          assert.equal(app.calls('BaseWindow', 'constructor').length, 0, 'no watcher off Windows');
        }
        assert.equal(await chat(url, `smoke-${event}`), 200);
        app.tell({ cmd: 'emit', target, event });
        assert.deepEqual(await app.exited, { code: 0, signal: null });
        assert.match(readState(setup.stateDir, 'history.json'), new RegExp(`smoke-${event}`));
        assert.match(readState(setup.stateDir, 'breakers.json'), /up\/bad/);
        if (target === 'powerMonitor') {
          const emitted = app.calls(target, `emitted:${event}`)[0];
          assert.deepEqual(emitted?.args, [{ prevented: true }], 'shutdown delayed until the app has quit');
        }
      } finally {
        await tearDown(setup, app);
      }
    });
  }
});

test('on a dark OS theme the window opens on the dark background and follows theme changes', async () => {
  const setup = await setUp();
  const app = launch(setup, { FAKE_ELECTRON_DARK: '1' });
  try {
    const created = await app.waitFor('the window', (records) =>
      records.find((r) => r.api === 'BrowserWindow' && r.call === 'constructor'),
    );
    assert.equal((created.args[0] as { backgroundColor: string }).backgroundColor, WINDOW_BACKGROUND.dark);
    await app.command({ cmd: 'emit', target: 'nativeTheme', event: 'updated' });
    const set = app.calls(/^BrowserWindow#/, 'setBackgroundColor');
    assert.deepEqual(set.at(-1)?.args, [WINDOW_BACKGROUND.dark]);
  } finally {
    await tearDown(setup, app);
  }
});

test('a boot that throws shows an error dialog, releases the lock and exits non-zero', async () => {
  const setup = await setUp();
  const app = launch(setup, { FAKE_ELECTRON_FAIL_IN: 'Tray' });
  try {
    const { code } = await app.exited;
    assert.equal(code, 1);
    const records = app.records();
    const box = records.find((r) => r.api === 'dialog' && r.call === 'showErrorBox');
    assert.ok(box, 'an error dialog was shown');
    assert.match(String(box.args[1]), /Tray could not be created/);
    const release = records.find((r) => r.api === 'app' && r.call === 'releaseSingleInstanceLock');
    const exit = records.find((r) => r.api === 'app' && r.call === 'exit');
    assert.ok(release && exit && release.seq < exit.seq, 'the lock is released before the exit');
    assert.deepEqual(exit.args, [1]);
    assert.match(app.output(), /could not start.*Tray could not be created/);
  } finally {
    await tearDown(setup, app);
  }
});

test('an FCM_ROUTER_PORT that is no port stops the boot with a dialog naming it', async () => {
  const setup = await setUp();
  const app = launch(setup, { FCM_ROUTER_PORT: 'abc' });
  try {
    const { code } = await app.exited;
    assert.equal(code, 1);
    const box = app.records().find((r) => r.api === 'dialog' && r.call === 'showErrorBox');
    assert.match(String(box?.args[1]), /FCM_ROUTER_PORT must be a port number \(0-65535\), got "abc"/);
    assert.equal(readState(setup.stateDir, 'daemon.lock'), '', 'no router was started');
  } finally {
    await tearDown(setup, app);
  }
});
