/**
 * The Electron main process: thin wiring only. It creates the Electron objects and hands them to the
 * Electron-free modules that decide (desktop-shell.ts: the app's state and actions; desktop-connect.ts:
 * its router; quit-wiring.ts: the ways out), each once what it needs exists.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, clipboard, dialog, ipcMain, nativeTheme, Notification, powerMonitor, session } from 'electron';
import Store from 'electron-store';
import { systemTime, type RouterLogger } from '../router/index.js';
import { APP_ID } from './app-identity.js';
import { AppTray } from './app-tray.js';
import { bootWhenReady, endFailedBoot } from './boot-guard.js';
import { DashboardWindow, hardenApp } from './dashboard-window.js';
import { desktopConnector } from './desktop-connect.js';
import { DESKTOP_HOST, DesktopShell } from './desktop-shell.js';
import { askStartAtLogin } from './first-run.js';
import { registerIpcHandlers } from './ipc-dispatch.js';
import { KeptNotifications } from './kept-notifications.js';
import { launchedAtLogin, loginItemForProcess } from './login-item.js';
import {
  boundsInPrefs,
  PREFS_DEFAULTS,
  PREFS_FILE_NAME,
  PREFS_SCHEMA,
  type DesktopPrefs,
} from './prefs-schema.js';
import { wireQuit } from './quit-wiring.js';
import { desktopPort } from './router-connect.js';
import { watchSessionEnd } from './session-end-watch.js';
import { windowBackground } from './window-theme.js';

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

/** The dashboard window, on the OS theme's background and following its changes. */
function dashboardWindow(appPath: string, prefs: Store<DesktopPrefs>): DashboardWindow {
  const window = new DashboardWindow({
    preload: path.join(here, 'preload.cjs'),
    icon: path.join(appPath, 'build', 'icons', 'icon.png'),
    background: () => windowBackground(nativeTheme.shouldUseDarkColors),
    time: systemTime,
    bounds: boundsInPrefs(prefs, logger.warn),
  });
  nativeTheme.on('updated', () => window.setBackground(windowBackground(nativeTheme.shouldUseDarkColors)));
  return window;
}

/** The app's state and actions over Electron's notifications, the window and its own or an attached router. */
function desktopShell(appPath: string, prefs: Store<DesktopPrefs>, window: DashboardWindow): DesktopShell {
  // Electron holds shown notifications weakly: without these references their clicks are lost.
  const notifications = new KeptNotifications<Notification>();
  const { platform, env, execPath } = process;
  const run = { platform, env, execPath, homedir: os.homedir() };
  return new DesktopShell({
    prefs,
    loginItem: loginItemForProcess(app, run, app.isPackaged ? null : appPath),
    time: systemTime,
    logger,
    connect: desktopConnector({
      host: DESKTOP_HOST,
      version: app.getVersion(),
      stateDir: app.getPath('userData'),
      rendererDir: path.join(appPath, 'dist', 'renderer'),
      demo: process.argv.includes('--demo'),
      env: process.env,
      resolveProxy: (url) => session.defaultSession.resolveProxy(url),
      wakes: powerMonitor,
      logger,
    }),
    showWindow: (url) => window.show(url),
    notify(notice, onClick) {
      if (!Notification.isSupported()) return;
      const shown = new Notification({ title: notice.title, body: notice.body });
      shown.on('click', onClick);
      notifications.keep(shown);
      shown.show();
    },
  });
}

async function boot(): Promise<void> {
  const prefs = new Store<DesktopPrefs>({
    name: PREFS_FILE_NAME,
    schema: PREFS_SCHEMA,
    defaults: PREFS_DEFAULTS,
    clearInvalidConfig: true,
    configFileMode: 0o600,
  });
  const appPath = app.getAppPath();
  const window = dashboardWindow(appPath, prefs);
  const shell = desktopShell(appPath, prefs, window);
  hardenApp(app, () => shell.routerOrigin);
  await shell.readStartAtLogin();

  const tray = new AppTray(
    appPath,
    shell.trayActions({ copyText: (text) => clipboard.writeText(text), quit: () => app.quit() }),
  );
  shell.onRender((view, menu) => tray.render(view, menu));
  registerIpcHandlers(ipcMain, shell.ipcHandlers(app.getVersion()), () => shell.routerOrigin);

  // Quit stops our own router gracefully (in-flight requests finish, state is flushed); an attached daemon
  // is only disconnected and keeps running.
  const quit = wireQuit({
    app,
    powerMonitor,
    signals: process,
    stop: (graceMs) => shell.close(graceMs),
    allowWindowClose: () => window.allowClose(),
    openDashboard: () => shell.openDashboard(),
    logError: logger.error,
  });
  quit.closeOnQuit(() => tray.destroy());
  // Windows sends no shutdown event, only window messages: a hidden window hears them from boot.
  const sessionWatcher = watchSessionEnd(process.platform, quit.endSession);
  quit.closeOnQuit(() => sessionWatcher?.destroy());
  // Read by e2e/desktop.spec.ts through electronApp.evaluate; never set in normal runs.
  if (testMode) Object.assign(globalThis, { __fcmDesktopTest: shell.testHook() });

  await shell.connect(desktopPort(prefs.get('port'), process.env));
  if (!testMode && !launchedAtLogin(process.argv, process.platform, app)) shell.openDashboard();
  await shell.firstRun((agentUrl) =>
    testMode ? Promise.resolve(false) : askStartAtLogin(window.window, agentUrl),
  );
}
