import { readFile, rm } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../router/index.js';
import { GUI_EXECUTABLE_NAME } from './app-identity.js';

/** How to launch the app at login. */
export interface LaunchTarget {
  execPath: string;
  args: string[];
}

/** Where to look for the autostart folder: the environment and the home folder. */
export interface XdgLocation {
  env: Record<string, string | undefined>;
  homedir: string;
}

/** The argument that tells the app it was started at login (stay in the tray, open no window). */
export const HIDDEN_ARG = '--hidden';

const FILE_NAME = 'fcm-router.desktop';

/**
 * `$XDG_CONFIG_HOME/autostart`, or `~/.config/autostart`. A relative XDG_CONFIG_HOME is ignored, as the
 * XDG Base Directory spec requires.
 */
export function autostartDir({ env, homedir }: XdgLocation): string {
  const configHome = env.XDG_CONFIG_HOME;
  const base = configHome && path.isAbsolute(configHome) ? configHome : path.join(homedir, '.config');
  return path.join(base, 'autostart');
}

export function autostartFile(location: XdgLocation): string {
  return path.join(autostartDir(location), FILE_NAME);
}

/**
 * The program to start at login. Inside an AppImage `process.execPath` is a temporary mount that is gone
 * after logout, so the AppImage file itself (`$APPIMAGE`) is launched instead.
 */
export function linuxLaunchTarget(options: {
  env: Record<string, string | undefined>;
  execPath: string;
  /** The app folder to pass to a development Electron binary; null when packaged. */
  appPath: string | null;
}): LaunchTarget {
  const appImage = options.env.APPIMAGE;
  if (appImage && path.isAbsolute(appImage)) return { execPath: appImage, args: [HIDDEN_ARG] };
  return { execPath: options.execPath, args: [...(options.appPath ? [options.appPath] : []), HIDDEN_ARG] };
}

/**
 * Quotes one argument of an `Exec=` key as the Desktop Entry spec wants: reserved characters force double
 * quotes, inside which `"`, `` ` ``, `$` and `\` are backslash-escaped, and `%` is doubled so it is not a
 * field code.
 */
export function quoteExecArg(arg: string): string {
  const quoted =
    arg === '' || /[\s"'\\><~|&;$*?#()`]/.test(arg) ? `"${arg.replace(/["`$\\]/g, '\\$&')}"` : arg;
  return quoted.replaceAll('%', '%%');
}

/** Escapes a string value of a desktop entry (a second level of escaping on top of the Exec quoting). */
function escapeValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

/** The text of the autostart entry. */
export function desktopEntry(target: LaunchTarget): string {
  const exec = [target.execPath, ...target.args].map(quoteExecArg).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=fcm-router',
    'Comment=Local OpenAI-compatible router for free LLM providers',
    `Exec=${escapeValue(exec)}`,
    // The icon the .deb installs, named after the executable.
    `Icon=${GUI_EXECUTABLE_NAME}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Writes the autostart entry (atomically, mode 0644); returns its path. */
export async function enableLinuxAutostart(location: XdgLocation, target: LaunchTarget): Promise<string> {
  const file = autostartFile(location);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomically(file, desktopEntry(target), { mode: 0o644 });
  return file;
}

/** Removes the autostart entry; a missing one is fine. */
export async function disableLinuxAutostart(location: XdgLocation): Promise<void> {
  await rm(autostartFile(location), { force: true });
}

/** True when our entry exists and is not switched off (`Hidden=true` or GNOME's enabled flag). */
export async function isLinuxAutostartEnabled(location: XdgLocation): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(autostartFile(location), 'utf8');
  } catch {
    return false;
  }
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  return !lines.includes('Hidden=true') && !lines.includes('X-GNOME-Autostart-enabled=false');
}
