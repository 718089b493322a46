/**
 * Electron-only: hears that the Windows session is ending. Windows says so only to windows
 * (`query-session-end`, `session-end`): Electron's `powerMonitor` `shutdown` is Linux and macOS only, and
 * `before-quit` is not emitted at logout or shutdown. A tray app may never have opened its dashboard, so a
 * hidden window without web contents listens from boot, and up to a debounce of state is not lost.
 */
import { BaseWindow } from 'electron';
import { needsSessionWatcher } from './quit-flow.js';

/** Starts listening where the platform needs it (Windows); returns the hidden window, or null. */
export function watchSessionEnd(platform: NodeJS.Platform, onSessionEnd: () => void): BaseWindow | null {
  if (!needsSessionWatcher(platform)) return null;
  // Hidden top-level windows still receive WM_QUERYENDSESSION; this one is never shown or focused.
  const watcher = new BaseWindow({
    show: false,
    width: 1,
    height: 1,
    skipTaskbar: true,
    focusable: false,
    title: 'fcm-router',
  });
  watcher.on('query-session-end', onSessionEnd);
  watcher.on('session-end', onSessionEnd);
  return watcher;
}
