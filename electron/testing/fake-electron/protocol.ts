/**
 * What passes between the boot smoke test and the recording stand-in for `electron` it loads into the
 * built main process. Test-only. Records go to a JSON-lines file, written synchronously so that nothing is
 * lost when the app ends itself with `app.exit()`; commands and their replies use the child's IPC channel.
 */

/** Environment variables read by the stand-in. */
export const FAKE_ENV = {
  /** Path of the JSON-lines file every call is recorded to. */
  records: 'FAKE_ELECTRON_RECORDS',
  /** Name of a constructor that throws, to make the boot fail (e.g. `Tray`). */
  failIn: 'FAKE_ELECTRON_FAIL_IN',
  /** `1` when the OS theme is dark. */
  dark: 'FAKE_ELECTRON_DARK',
  /** The platform the app is told it runs on (`win32`), as `process.platform`. */
  platform: 'FAKE_ELECTRON_PLATFORM',
} as const;

/** One recorded call (or event) of the main process against the electron API. */
export interface CallRecord {
  seq: number;
  /** `app`, `Tray`, `BrowserWindow#1`, `webContents#1`, `ipcMain`, `Notification#2`, `process`… */
  api: string;
  call: string;
  args: unknown[];
}

/** What the test can ask the running app to do, as the OS or the user would. */
export type Command =
  | { cmd: 'quit' }
  /** Runs a full garbage collection first, then clicks the n-th notification shown, if it still exists. */
  | { cmd: 'click-notification'; index: number }
  | { cmd: 'click-tray-item'; label: string }
  | { cmd: 'invoke'; channel: string; args: unknown[]; senderUrl: string; isMainFrame: boolean }
  /** `sessionWatcher`: the newest hidden `BaseWindow`. */
  | { cmd: 'emit'; target: 'powerMonitor' | 'window' | 'sessionWatcher' | 'nativeTheme'; event: string }
  | { cmd: 'reload-window' };

export type CommandMessage = Command & { id: number };

export type ReplyMessage =
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };
