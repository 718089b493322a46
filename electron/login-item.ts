import {
  disableLinuxAutostart,
  enableLinuxAutostart,
  HIDDEN_ARG,
  isLinuxAutostartEnabled,
  linuxLaunchTarget,
  type LaunchTarget,
  type XdgLocation,
} from './autostart-linux.js';

/** The part of Electron's `app` that manages login items (macOS and Windows). */
export interface LoginItemApi {
  getLoginItemSettings(options?: { path?: string; args?: string[] }): {
    openAtLogin: boolean;
    wasOpenedAtLogin?: boolean;
  };
  setLoginItemSettings(settings: { openAtLogin?: boolean; path?: string; args?: string[] }): void;
}

/** Start at login, the same on every platform. */
export interface LoginItem {
  get(): Promise<boolean>;
  /** Resolves to the setting as read back afterwards. */
  set(enabled: boolean): Promise<boolean>;
}

export interface LoginItemOptions {
  platform: NodeJS.Platform;
  api: LoginItemApi;
  /** What to launch: the app binary plus arguments (Windows and Linux). */
  target: LaunchTarget;
  /** Where the XDG autostart folder is (Linux). */
  xdg: XdgLocation;
}

/**
 * Chooses the mechanism: Electron's login items on macOS and Windows, an XDG autostart entry on Linux
 * (Electron's login-item API does nothing there). Null on other platforms.
 */
export function createLoginItem(options: LoginItemOptions): LoginItem | null {
  const { platform, api, target, xdg } = options;
  switch (platform) {
    case 'darwin':
      return {
        get: async () => api.getLoginItemSettings().openAtLogin,
        set: async (enabled) => {
          api.setLoginItemSettings({ openAtLogin: enabled });
          return api.getLoginItemSettings().openAtLogin;
        },
      };
    case 'win32': {
      // Windows compares path and args when reading back, so both calls pass the same pair.
      const match = { path: target.execPath, args: target.args };
      return {
        get: async () => api.getLoginItemSettings(match).openAtLogin,
        set: async (enabled) => {
          api.setLoginItemSettings({ openAtLogin: enabled, ...match });
          return api.getLoginItemSettings(match).openAtLogin;
        },
      };
    }
    case 'linux':
    case 'freebsd':
    case 'openbsd':
      return {
        get: () => isLinuxAutostartEnabled(xdg),
        set: async (enabled) => {
          if (enabled) await enableLinuxAutostart(xdg, target);
          else await disableLinuxAutostart(xdg);
          return isLinuxAutostartEnabled(xdg);
        },
      };
    default:
      return null;
  }
}

/** True when this launch came from the login item, so the app should stay in the tray. */
export function launchedAtLogin(
  argv: readonly string[],
  platform: NodeJS.Platform,
  api: LoginItemApi,
): boolean {
  if (argv.includes(HIDDEN_ARG)) return true;
  return platform === 'darwin' && api.getLoginItemSettings().wasOpenedAtLogin === true;
}

/**
 * What the login item starts: the app binary with `--hidden`, plus the app folder when running from a
 * development Electron; on Linux the AppImage file rather than its temporary mount.
 */
export function launchTargetFor(options: {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  execPath: string;
  /** The app folder for a development Electron binary; null when packaged. */
  appPath: string | null;
}): LaunchTarget {
  if (options.platform === 'linux') return linuxLaunchTarget(options);
  return { execPath: options.execPath, args: [...(options.appPath ? [options.appPath] : []), HIDDEN_ARG] };
}

/**
 * Start at login for this process: the app binary (`execPath`), with the app folder when `appPath` is
 * given (a development Electron), launched hidden; the XDG folder found from the environment and home.
 */
export function loginItemForProcess(
  api: LoginItemApi,
  run: {
    platform: NodeJS.Platform;
    env: Record<string, string | undefined>;
    execPath: string;
    homedir: string;
  },
  appPath: string | null,
): LoginItem | null {
  const { platform, env, execPath, homedir } = run;
  const target = launchTargetFor({ platform, env, execPath, appPath });
  return createLoginItem({ platform, api, target, xdg: { env, homedir } });
}
