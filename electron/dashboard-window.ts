/**
 * Electron-only: the dashboard window and the security guards of every web contents. The decisions live
 * in navigation-policy.ts and window-bounds.ts; this file only applies them.
 */
import { BrowserWindow, screen, session, shell, type App, type WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, isSafeExternalUrl } from './navigation-policy.js';
import { decidePermission } from './permission-policy.js';
import { MIN_WINDOW_SIZE, restoreBounds, type Rect } from './window-bounds.js';

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

/** The dashboard window: created on demand, hidden (not closed) by its close button, reused afterwards. */
export class DashboardWindow {
  #window: BrowserWindow | null = null;
  #closable = false;

  constructor(private readonly options: { preload: string; icon: string; bounds: BoundsStore }) {}

  /** Shows the dashboard at `url`, loading it if the window shows another router (or nothing yet). */
  show(url: string): void {
    const window = this.#window ?? this.#create();
    const current = window.webContents.getURL();
    if (!current || new URL(current).origin !== new URL(url).origin) void window.loadURL(url);
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
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
      show: false,
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
    window.once('ready-to-show', () => window.show());
    window.on('close', (event) => {
      this.options.bounds.save(window.getNormalBounds(), window.isMaximized());
      if (this.#closable) return;
      // The close button hides to the tray; Quit lives in the tray menu.
      event.preventDefault();
      window.hide();
    });
    window.on('closed', () => (this.#window = null));
    this.#window = window;
    return window;
  }
}
