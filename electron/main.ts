/**
 * The Electron main process: thin wiring only. It runs the router in-process (or attaches to a daemon that
 * already serves the port), shows health in the tray, opens the dashboard window and manages start at
 * login. Every decision is made in an Electron-free module with its own tests.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, clipboard, dialog, ipcMain, nativeTheme, Notification, powerMonitor } from 'electron';
import Store from 'electron-store';
import { ConfigError, DEFAULT_PORT, startRouter, type RouterLogger } from '../router/index.js';
import { APP_ID } from './app-identity.js';
import { AppTray } from './app-tray.js';
import { bootWhenReady, endFailedBoot } from './boot-guard.js';
import { DashboardWindow, hardenApp } from './dashboard-window.js';
import { DesktopStatus } from './desktop-status.js';
import { askStartAtLogin } from './first-run.js';
import { IPC_CHANNELS, type IpcHandlers } from './ipc-contract.js';
import { createIpcDispatcher } from './ipc-dispatch.js';
import { KeptNotifications } from './kept-notifications.js';
import { createLoginItem, launchedAtLogin, launchTargetFor } from './login-item.js';
import { PREFS_DEFAULTS, PREFS_FILE_NAME, PREFS_SCHEMA, type DesktopPrefs } from './prefs-schema.js';
import { delayDefault, QuitFlow } from './quit-flow.js';
import { connectRouter, desktopPort } from './router-connect.js';
import { ownedSource } from './router-source.js';
import { watchSessionEnd } from './session-end-watch.js';
import { findStateDirDaemon } from './state-dir-daemon.js';
import { realTimers } from './timers.js';
import { agentBaseUrl, buildTrayMenu, type MenuAction, type MenuItemModel } from './tray-menu-model.js';
import { windowBackground } from './window-theme.js';

const HOST = '127.0.0.1';
const here = path.dirname(fileURLToPath(import.meta.url));
const testMode = process.env.FCM_ROUTER_TEST === '1';
const logger: RouterLogger = { info: console.log, warn: console.warn, error: console.error };

app.enableSandbox();
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
// Tests (and anyone who wants two setups) point the whole app, router state included, at another folder.
const stateDirOverride = process.env.FCM_ROUTER_STATE_DIR?.trim();
if (stateDirOverride) app.setPath('userData', path.resolve(stateDirOverride));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // A boot that throws must end the app: a process without tray or window that holds the single-instance
  // lock would make every later launch do nothing.
  void bootWhenReady(app.whenReady(), boot, (error) =>
    endFailedBoot(error, {
      log: logger.error,
      showError: (title, content) => dialog.showErrorBox(title, content),
      releaseLock: () => app.releaseSingleInstanceLock(),
      exit: (code) => app.exit(code),
    }),
  );
}

async function boot(): Promise<void> {
  const prefs = new Store<DesktopPrefs>({
    name: PREFS_FILE_NAME,
    schema: PREFS_SCHEMA,
    defaults: PREFS_DEFAULTS,
    clearInvalidConfig: true,
    configFileMode: 0o600,
  });
  let routerOrigin: string | null = null;
  let nextFreePort: number | null = null;
  let menu: MenuItemModel[] = [];
  hardenApp(app, () => routerOrigin);

  const appPath = app.getAppPath();
  const loginItem = createLoginItem({
    platform: process.platform,
    api: app,
    target: launchTargetFor({
      platform: process.platform,
      env: process.env,
      execPath: process.execPath,
      appPath: app.isPackaged ? null : appPath,
    }),
    xdg: { env: process.env, homedir: os.homedir() },
  });
  let startAtLogin: boolean | null = loginItem ? await loginItem.get().catch(() => null) : null;

  const window = new DashboardWindow({
    preload: path.join(here, 'preload.cjs'),
    icon: path.join(appPath, 'build', 'icons', 'icon.png'),
    background: () => windowBackground(nativeTheme.shouldUseDarkColors),
    timers: realTimers,
    bounds: {
      load: () => ({ bounds: prefs.get('windowBounds'), maximized: prefs.get('windowMaximized') }),
      save(bounds, maximized) {
        try {
          prefs.set('windowBounds', bounds);
          prefs.set('windowMaximized', maximized);
        } catch (error) {
          logger.warn(`fcm-router: window position not saved: ${String(error)}`);
        }
      },
    },
  });
  nativeTheme.on('updated', () => window.setBackground(windowBackground(nativeTheme.shouldUseDarkColors)));

  // Electron holds shown notifications weakly: without these references their clicks are lost.
  const notifications = new KeptNotifications<Notification>();
  const status = new DesktopStatus({
    clock: Date.now,
    timers: realTimers,
    notificationsEnabled: () => prefs.get('notificationsEnabled'),
    notify(notice) {
      if (!Notification.isSupported()) return;
      const shown = new Notification({ title: notice.title, body: notice.body });
      shown.on('click', openDashboard);
      notifications.keep(shown);
      shown.show();
    },
    render(view, routerStatus) {
      const source = status.source;
      menu = buildTrayMenu({
        view,
        mode: source?.mode ?? 'none',
        paused: routerStatus.kind === 'running' && routerStatus.state.paused,
        routerUrl: source?.url ?? null,
        nextFreePort,
        startAtLogin,
      });
      tray.render(view, menu);
    },
  });

  /** The session ends or the system shuts down: quit now, with a short grace for in-flight requests. */
  function endSession(): void {
    quitFlow.sessionEnding();
    app.quit();
  }

  function openDashboard(): void {
    const page = status.source?.pageUrl;
    if (page) window.show(page);
  }

  async function setStartAtLogin(enabled: boolean): Promise<boolean> {
    if (!loginItem) return false;
    startAtLogin = await loginItem.set(enabled);
    status.rerender();
    return startAtLogin;
  }

  async function connect(port: number): Promise<void> {
    status.setStatus({ kind: 'starting' });
    routerOrigin = null;
    try {
      const result = await connectRouter({
        host: HOST,
        port,
        ownVersion: app.getVersion(),
        findExisting: () =>
          findStateDirDaemon({
            stateDir: app.getPath('userData'),
            ownPid: process.pid,
            ownVersion: app.getVersion(),
          }),
        startOwned: async (p) =>
          ownedSource(
            await startRouter({
              port: p,
              host: HOST,
              stateDir: app.getPath('userData'),
              rendererDir: path.join(appPath, 'dist', 'renderer'),
              demo: process.argv.includes('--demo'),
              env: process.env,
              logger,
            }),
          ),
      });
      if (result.kind === 'state-dir-taken') {
        logger.warn(`fcm-router: ${result.reason}`);
        status.setStatus({ kind: 'stopped', reason: result.reason });
        return;
      }
      if (result.kind === 'port-taken') {
        nextFreePort = result.nextFreePort;
        logger.warn(`fcm-router: port ${result.port} is taken: ${result.reason}`);
        status.setStatus({ kind: 'port-taken', port: result.port, nextFreePort: result.nextFreePort });
        return;
      }
      nextFreePort = null;
      routerOrigin = new URL(result.source.url).origin;
      logger.info(
        `fcm-router: ${result.source.mode === 'owned' ? 'serving' : 'attached to'} ${result.source.url}`,
      );
      status.attach(result.source);
    } catch (error) {
      const reason = error instanceof ConfigError ? `invalid ${path.basename(error.file)}` : String(error);
      logger.error(
        `fcm-router: the router did not start: ${error instanceof Error ? error.message : reason}`,
      );
      status.setStatus({ kind: 'stopped', reason });
    }
  }

  const actions: Record<MenuAction, () => void> = {
    'open-dashboard': openDashboard,
    'copy-base-url': () => {
      if (status.source) clipboard.writeText(agentBaseUrl(status.source.url));
    },
    pause: () => void status.source?.setPaused(true).then(() => status.refresh(), logger.error),
    resume: () => void status.source?.setPaused(false).then(() => status.refresh(), logger.error),
    'use-next-port': () => {
      if (nextFreePort === null) return;
      prefs.set('port', nextFreePort);
      void connect(nextFreePort);
    },
    'toggle-start-at-login': () => void setStartAtLogin(!startAtLogin).catch(logger.error),
    quit: () => app.quit(),
  };
  const tray = new AppTray(appPath, actions);

  const handlers: IpcHandlers = {
    'fcm-desktop:get-app-version': () => app.getVersion(),
    'fcm-desktop:get-start-at-login': async () => (loginItem ? loginItem.get() : false),
    'fcm-desktop:set-start-at-login': setStartAtLogin,
    'fcm-desktop:get-notifications-enabled': () => prefs.get('notificationsEnabled'),
    'fcm-desktop:set-notifications-enabled': (enabled) => {
      prefs.set('notificationsEnabled', enabled);
      return prefs.get('notificationsEnabled');
    },
  };
  const dispatch = createIpcDispatcher(handlers, () => routerOrigin);
  for (const channel of Object.keys(IPC_CHANNELS)) {
    ipcMain.handle(channel, (event, ...args: unknown[]) =>
      dispatch(
        channel,
        { url: event.senderFrame?.url, isMainFrame: event.senderFrame?.parent === null },
        args,
      ),
    );
  }

  // Quit stops our own router gracefully (in-flight requests finish, state is flushed); an attached daemon
  // is only disconnected and keeps running.
  const quitFlow = new QuitFlow({
    stop: async (graceMs) => {
      const source = status.source;
      status.dispose();
      await source?.close({ graceMs });
    },
    finish: () => {
      tray.destroy();
      sessionWatcher?.destroy();
      app.quit();
    },
    logError: logger.error,
  });
  app.on('before-quit', (event) => {
    window.allowClose();
    quitFlow.beforeQuit(event);
  });
  // Linux and macOS: the system is going down; its event's default is delayed until the app has quit.
  powerMonitor.on('shutdown', (...args: unknown[]) => {
    delayDefault(args[0]);
    endSession();
  });
  // Windows sends no such event, only window messages: a hidden window hears them from boot.
  const sessionWatcher = watchSessionEnd(process.platform, endSession);
  app.on('window-all-closed', () => undefined); // stay in the tray
  app.on('second-instance', openDashboard);
  app.on('activate', openDashboard);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  if (testMode) {
    // Read by e2e/desktop.spec.ts through electronApp.evaluate; never set in normal runs.
    Object.assign(globalThis, {
      __fcmDesktopTest: {
        view: () => status.view,
        status: () => status.status.kind,
        menu: () => menu,
        routerUrl: () => status.source?.url ?? null,
        mode: () => status.source?.mode ?? null,
        openDashboard,
      },
    });
  }

  await connect(desktopPort(prefs.get('port'), process.env, DEFAULT_PORT));

  if (!testMode && !launchedAtLogin(process.argv, process.platform, app)) openDashboard();
  if (!prefs.get('firstRunSeen')) {
    prefs.set('firstRunSeen', true);
    const agentUrl = agentBaseUrl(status.source?.url ?? `http://${HOST}:${DEFAULT_PORT}`);
    if (loginItem && !testMode && (await askStartAtLogin(window.window, agentUrl))) {
      await setStartAtLogin(true).catch(logger.error);
    }
  }
}
