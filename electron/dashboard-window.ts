/**
 * Electron-only: the dashboard window and the security guards of every web contents. The decisions live
 * in navigation-policy.ts, window-bounds.ts, window-reveal.ts and load-retry.ts; this file only applies them.
 */
import { BrowserWindow, screen, session, shell, type App, type WebContents } from 'electron';
import { DashboardRetry } from './load-retry.js';
import { decideNavigation, decideWindowOpen, isSafeExternalUrl } from './navigation-policy.js';
import { decidePermission } from './permission-policy.js';
import type { Time } from '../router/index.js';
import { MIN_WINDOW_SIZE, restoreBounds, type Rect } from './window-bounds.js';
import { RevealGate } from './window-reveal.js';

/**
 * Applies Electron's security checklist to everything the app ever opens: navigation only within the
 * router's origin, no new windows (https links go to the user's browser), no webviews, and every
 * permission refused except the clipboard write the dashboard's copy buttons need (permission-policy.ts).
 */
export function hardenApp(app: App, routerOrigin: () => string | null): void {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(decidePermission(permission, details.requestingUrl, routerOrigin())),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    decidePermission(permission, requestingOrigin, routerOrigin()),
  );
  app.on('web-contents-created', (_event, contents) => guard(contents, routerOrigin));
}

function guard(contents: WebContents, routerOrigin: () => string | null): void {
  const allowed = (url: string): boolean => {
    const origin = routerOrigin();
    return origin !== null && decideNavigation(url, origin) === 'allow';
  };
  contents.on('will-navigate', (event) => {
    if (allowed(event.url)) return;
    event.preventDefault();
    // A plain link to a provider's key page: show it in the browser rather than silently doing nothing.
    if (isSafeExternalUrl(event.url)) void shell.openExternal(event.url);
  });
  contents.on('will-redirect', (event) => {
    if (!allowed(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.openExternal) void shell.openExternal(decision.openExternal);
    return { action: decision.action };
  });
}

/** Where the window's geometry is kept between runs. */
export interface BoundsStore {
  load(): { bounds: Rect | null; maximized: boolean };
  save(bounds: Rect, maximized: boolean): void;
}

export interface DashboardWindowOptions {
  preload: string;
  icon: string;
  bounds: BoundsStore;
  /** The window's background for the OS theme now (window-theme.ts). */
  background(): string;
  /** The timers of the reveal's fallback and the reload after a failed load. */
  time: Time;
}

/** Loads a page; a failure arrives as `did-fail-load`, which the retry handles, so the promise is not. */
function load(window: BrowserWindow, url: string): void {
  window.loadURL(url).catch(() => undefined);
}

/**
 * The dashboard window: created on demand, hidden (not closed) by its close button, reused afterwards. It
 * becomes visible only once painted, on the theme's background, and shows a local page that retries while
 * the dashboard cannot be loaded.
 */
export class DashboardWindow {
  #window: BrowserWindow | null = null;
  #reveal: RevealGate | null = null;
  #retry: DashboardRetry | null = null;
  #closable = false;

  constructor(private readonly options: DashboardWindowOptions) {}

  /** Shows the dashboard at `url`, loading it if the window shows another router (or nothing yet). */
  show(url: string): void {
    const window = this.#window ?? this.#create();
    this.#retry?.cancel();
    const current = window.webContents.getURL();
    if (!current || new URL(current).origin !== new URL(url).origin) load(window, url);
    if (window.isMinimized()) window.restore();
    this.#reveal?.request();
  }

  /** The OS theme changed: the background behind the page follows it. */
  setBackground(colour: string): void {
    this.#window?.setBackgroundColor(colour);
  }

  /** From now on the close button really closes (the app is quitting). */
  allowClose(): void {
    this.#closable = true;
  }

  get window(): BrowserWindow | null {
    return this.#window;
  }

  #create(): BrowserWindow {
    const saved = this.options.bounds.load();
    const displays = screen.getAllDisplays().map((display) => display.workArea);
    const window = new BrowserWindow({
      ...restoreBounds(saved.bounds, displays),
      minWidth: MIN_WINDOW_SIZE.width,
      minHeight: MIN_WINDOW_SIZE.height,
      // Shown by the reveal gate on `ready-to-show`; until then the theme's colour, never a white flash.
      show: false,
      backgroundColor: this.options.background(),
      title: 'fcm-router',
      icon: this.options.icon,
      autoHideMenuBar: true,
      webPreferences: {
        preload: this.options.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        webviewTag: false,
        spellcheck: false,
      },
    });
    if (saved.maximized) window.maximize();
    const reveal = new RevealGate(() => {
      window.show();
      window.focus();
    }, this.options.time);
    const retry = new DashboardRetry({
      time: this.options.time,
      load: (url) => load(window, url),
      showPage: (page) => load(window, page),
    });
    window.once('ready-to-show', () => reveal.painted());
    window.webContents.on('did-fail-load', (_event, errorCode, errorDescription, url, isMainFrame) =>
      retry.failed({ errorCode, errorDescription, url, isMainFrame }),
    );
    window.webContents.on('did-finish-load', () => retry.loaded(window.webContents.getURL()));
    window.on('close', (event) => {
      this.options.bounds.save(window.getNormalBounds(), window.isMaximized());
      if (this.#closable) return;
      // The close button hides to the tray; Quit lives in the tray menu.
      event.preventDefault();
      window.hide();
    });
    window.on('closed', () => {
      reveal.dispose();
      retry.cancel();
      this.#window = null;
      this.#reveal = null;
      this.#retry = null;
    });
    this.#window = window;
    this.#reveal = reveal;
    this.#retry = retry;
    return window;
  }
}
