import path from 'node:path';

type Env = Record<string, string | undefined>;

const APP_NAME = 'fcm-router';

/** Reads an environment variable case-insensitively, as Windows does. */
function windowsEnv(env: Env, name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * The per-user folder Electron's `app.getPath('userData')` gives an app named `fcm-router`, so the CLI
 * daemon and the desktop app share one config and one breaker state.
 *
 * @example defaultStateDir('linux', {}, '/home/ada') // '/home/ada/.config/fcm-router'
 */
export function defaultStateDir(platform: NodeJS.Platform, env: Env, homedir: string): string {
  if (platform === 'win32') {
    const appData = nonEmpty(windowsEnv(env, 'APPDATA')) ?? path.win32.join(homedir, 'AppData', 'Roaming');
    return path.win32.join(appData, APP_NAME);
  }
  if (platform === 'darwin') {
    return path.posix.join(homedir, 'Library', 'Application Support', APP_NAME);
  }
  const configHome = nonEmpty(env['XDG_CONFIG_HOME']) ?? path.posix.join(homedir, '.config');
  return path.posix.join(configHome, APP_NAME);
}

/** Where the router keeps its files: the explicit option, then `FCM_ROUTER_STATE_DIR`, then the default. */
export function resolveStateDir(options: {
  stateDir?: string;
  env: Env;
  platform: NodeJS.Platform;
  homedir: string;
}): string {
  return (
    nonEmpty(options.stateDir) ??
    nonEmpty(options.env['FCM_ROUTER_STATE_DIR']) ??
    defaultStateDir(options.platform, options.env, options.homedir)
  );
}
