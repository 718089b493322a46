/**
 * The desktop app's state and what it does, without Electron: which router it shows (its own, or a daemon
 * it attached to), the tray's view and menu, start at login, the dashboard window's page, the way out.
 * main.ts hands it the Electron objects it acts through and subscribes the tray to its renders, so no part
 * is referred to before it exists.
 */
import path from 'node:path';
import { ConfigError, DEFAULT_PORT, type RouterLogger, type Time } from '../router/index.js';
import { DesktopStatus } from './desktop-status.js';
import type { IpcHandlers } from './ipc-contract.js';
import type { LoginItem } from './login-item.js';
import type { Notice } from './notification-throttle.js';
import type { PrefsStore } from './prefs-schema.js';
import type { ConnectResult } from './router-connect.js';
import type { RouterStatus, TrayView } from './tray-health.js';
import { agentBaseUrl, buildTrayMenu, type MenuAction, type MenuItemModel } from './tray-menu-model.js';

/** The loopback address the desktop app's router listens on. */
export const DESKTOP_HOST = '127.0.0.1';

export interface ShellDeps {
  prefs: PrefsStore;
  /** Start at login where the platform has it, else null. */
  loginItem: LoginItem | null;
  time: Time;
  logger: RouterLogger;
  /** Brings up the router to show on `port` (see desktop-connect.ts). */
  connect(port: number): Promise<ConnectResult>;
  /** Shows the dashboard window at `url`. */
  showWindow(url: string): void;
  /** Shows a desktop notification; `onClick` runs when the user clicks it. */
  notify(notice: Notice, onClick: () => void): void;
}

/** Told of every change of the tray: its view and its menu. */
export type RenderListener = (view: TrayView, menu: readonly MenuItemModel[]) => void;

/** What e2e/desktop.spec.ts reads from the running app (test mode only). */
export interface DesktopTestHook {
  view(): TrayView;
  status(): RouterStatus['kind'];
  menu(): readonly MenuItemModel[];
  routerUrl(): string | null;
  mode(): 'owned' | 'attached' | null;
  openDashboard(): void;
}

export class DesktopShell {
  readonly status: DesktopStatus;
  #routerOrigin: string | null = null;
  #nextFreePort: number | null = null;
  #startAtLogin: boolean | null = null;
  #menu: MenuItemModel[] = [];
  readonly #renderListeners = new Set<RenderListener>();

  constructor(private readonly deps: ShellDeps) {
    this.status = new DesktopStatus({
      time: deps.time,
      notificationsEnabled: () => deps.prefs.get('notificationsEnabled'),
      notify: (notice) => deps.notify(notice, () => this.openDashboard()),
      render: (view, status) => this.#render(view, status),
    });
  }

  /** The origin the dashboard is served from now (the window may navigate only there), or null. */
  get routerOrigin(): string | null {
    return this.#routerOrigin;
  }

  /** Whether the app starts at login; null where that cannot be read. */
  get startAtLogin(): boolean | null {
    return this.#startAtLogin;
  }

  /** Subscribes to the tray's renders; returns the unsubscribe function. */
  onRender(listener: RenderListener): () => void {
    this.#renderListeners.add(listener);
    return () => this.#renderListeners.delete(listener);
  }

  /** Reads the start-at-login setting once, for the menu's checkbox. */
  async readStartAtLogin(): Promise<void> {
    this.#startAtLogin = (await this.deps.loginItem?.get().catch(() => null)) ?? null;
  }

  /** Shows the dashboard of the router shown, if there is one. */
  openDashboard(): void {
    const page = this.status.source?.pageUrl;
    if (page) this.deps.showWindow(page);
  }

  /** Turns start at login on or off; resolves to the setting as read back (false where there is none). */
  async setStartAtLogin(enabled: boolean): Promise<boolean> {
    const { loginItem } = this.deps;
    if (!loginItem) return false;
    this.#startAtLogin = await loginItem.set(enabled);
    this.status.rerender();
    return this.#startAtLogin;
  }

  /** Brings up the router on `port` and shows it; a failure is shown in the tray, never thrown. */
  async connect(port: number): Promise<void> {
    this.status.setStatus({ kind: 'starting' });
    this.#routerOrigin = null;
    try {
      this.#show(await this.deps.connect(port));
    } catch (error) {
      const reason = error instanceof ConfigError ? `invalid ${path.basename(error.file)}` : String(error);
      this.deps.logger.error(
        `fcm-router: the router did not start: ${error instanceof Error ? error.message : reason}`,
      );
      this.status.setStatus({ kind: 'stopped', reason });
    }
  }

  /** The port was taken: keeps the next free one as the app's port and connects there. */
  useNextFreePort(): void {
    const port = this.#nextFreePort;
    if (port === null) return;
    this.deps.prefs.set('port', port);
    void this.connect(port);
  }

  /** Pauses or resumes routing on the router shown. */
  setPaused(paused: boolean): void {
    void this.status.source?.setPaused(paused).then(
      () => this.status.refresh(),
      (error: unknown) => this.deps.logger.error(String(error)),
    );
  }

  /** Stops what the app runs: its own router (in-flight requests get `graceMs`), or the attachment. */
  async close(graceMs: number): Promise<void> {
    const source = this.status.source;
    this.status.dispose();
    await source?.close({ graceMs });
  }

  /**
   * The first run asks once whether to start at login (`ask` gets the agents' base URL); never again, and
   * not where start at login does not exist.
   */
  async firstRun(ask: (agentUrl: string) => Promise<boolean>): Promise<void> {
    const { prefs, loginItem, logger } = this.deps;
    if (prefs.get('firstRunSeen')) return;
    prefs.set('firstRunSeen', true);
    const agentUrl = agentBaseUrl(this.status.source?.url ?? `http://${DESKTOP_HOST}:${DEFAULT_PORT}`);
    if (loginItem && (await ask(agentUrl)))
      await this.setStartAtLogin(true).catch((error: unknown) => logger.error(String(error)));
  }

  /** What each tray menu entry does; `copyText` and `quit` are the Electron calls behind two of them. */
  trayActions(io: { copyText(text: string): void; quit(): void }): Record<MenuAction, () => void> {
    return {
      'open-dashboard': () => this.openDashboard(),
      'copy-base-url': () => {
        const url = this.status.source?.url;
        if (url) io.copyText(agentBaseUrl(url));
      },
      pause: () => this.setPaused(true),
      resume: () => this.setPaused(false),
      'use-next-port': () => this.useNextFreePort(),
      'toggle-start-at-login': () =>
        void this.setStartAtLogin(!this.#startAtLogin).catch((error: unknown) =>
          this.deps.logger.error(String(error)),
        ),
      quit: () => io.quit(),
    };
  }

  /** What the dashboard may ask the app through the preload bridge (checked by ipc-dispatch.ts first). */
  ipcHandlers(appVersion: string): IpcHandlers {
    const { prefs, loginItem } = this.deps;
    return {
      'fcm-desktop:get-app-version': () => appVersion,
      'fcm-desktop:get-start-at-login': async () => (loginItem ? loginItem.get() : false),
      'fcm-desktop:set-start-at-login': (enabled) => this.setStartAtLogin(enabled),
      'fcm-desktop:get-notifications-enabled': () => prefs.get('notificationsEnabled'),
      'fcm-desktop:set-notifications-enabled': (enabled) => {
        prefs.set('notificationsEnabled', enabled);
        return prefs.get('notificationsEnabled');
      },
    };
  }

  /** The shell as e2e tests read it. */
  testHook(): DesktopTestHook {
    return {
      view: () => this.status.view,
      status: () => this.status.status.kind,
      menu: () => this.#menu,
      routerUrl: () => this.status.source?.url ?? null,
      mode: () => this.status.source?.mode ?? null,
      openDashboard: () => this.openDashboard(),
    };
  }

  #show(result: ConnectResult): void {
    const { logger } = this.deps;
    if (result.kind === 'state-dir-taken') {
      logger.warn(`fcm-router: ${result.reason}`);
      this.status.setStatus({ kind: 'stopped', reason: result.reason });
      return;
    }
    if (result.kind === 'port-taken') {
      this.#nextFreePort = result.nextFreePort;
      logger.warn(`fcm-router: port ${result.port} is taken: ${result.reason}`);
      const { port, nextFreePort, otherRouter } = result;
      this.status.setStatus({
        kind: 'port-taken',
        port,
        nextFreePort,
        ...(otherRouter ? { otherRouter } : {}),
      });
      return;
    }
    this.#nextFreePort = null;
    const { source } = result;
    this.#routerOrigin = new URL(source.url).origin;
    logger.info(`fcm-router: ${source.mode === 'owned' ? 'serving' : 'attached to'} ${source.url}`);
    this.status.attach(source);
  }

  #render(view: TrayView, routerStatus: RouterStatus): void {
    const source = this.status.source;
    this.#menu = buildTrayMenu({
      view,
      mode: source?.mode ?? 'none',
      paused: routerStatus.kind === 'running' && routerStatus.state.paused,
      routerUrl: source?.url ?? null,
      nextFreePort: this.#nextFreePort,
      startAtLogin: this.#startAtLogin,
    });
    for (const listener of this.#renderListeners) listener(view, this.#menu);
  }
}
