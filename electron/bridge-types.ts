/**
 * What the desktop app adds to the dashboard page: `window.fcmDesktop`, present only inside the Electron
 * window. It carries only what a browser page cannot do; everything else goes over the router's HTTP API,
 * so the dashboard works unchanged in a browser. Types only and no imports, so the renderer can import it.
 */

/** The preload bridge exposed as `window.fcmDesktop`. Every method is one IPC message. */
export interface FcmDesktopBridge {
  /** The desktop app's version (`app.getVersion()`). */
  getAppVersion(): Promise<string>;
  /** Whether the app starts when the user logs in. */
  getStartAtLogin(): Promise<boolean>;
  /** Turns start at login on or off; resolves to the setting as it now is. */
  setStartAtLogin(enabled: boolean): Promise<boolean>;
  /** Whether desktop notifications (model tripped, key invalid, nothing routable) are on. */
  getNotificationsEnabled(): Promise<boolean>;
  /** Switches desktop notifications; resolves to the setting as it now is. */
  setNotificationsEnabled(enabled: boolean): Promise<boolean>;
}

/** The global the preload adds; `fcmDesktop` is undefined in a plain browser. */
export interface FcmDesktopGlobal {
  fcmDesktop?: FcmDesktopBridge;
}
