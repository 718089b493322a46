/**
 * A recording stand-in for the `electron` module, loaded into the built main process by register.ts in
 * place of the real one (which cannot run here). It implements the part of Electron's main-process API the
 * app and electron-store use, records every call (record.ts) and obeys the smoke test's commands
 * (commands.ts). Test-only.
 */
import { EventEmitter } from 'node:events';
import { openSync, readSync, closeSync } from 'node:fs';
import { app, fakeEvent } from './fake-app.js';
import { FakeBaseWindow, FakeBrowserWindow } from './fake-windows.js';
import { FAKE_ENV } from './protocol.js';
import { record, type Named } from './record.js';
import { startCommands } from './commands.js';

export { app, FakeBaseWindow as BaseWindow, FakeBrowserWindow as BrowserWindow };

const PNG_SIGNATURE = '89504e470d0a1a0a';

function failIfAsked(name: string): void {
  if (process.env[FAKE_ENV.failIn] === name) throw new Error(`${name} could not be created (test failure)`);
}

/** Empty, as Electron's, when the file is missing or not an image. */
class FakeImage implements Named {
  constructor(readonly path: string) {}

  isEmpty(): boolean {
    try {
      const fd = openSync(this.path, 'r');
      const head = Buffer.alloc(8);
      readSync(fd, head, 0, 8, 0);
      closeSync(fd);
      return head.toString('hex') !== PNG_SIGNATURE;
    } catch {
      return true;
    }
  }

  recordAs(): unknown {
    return { image: this.path, empty: this.isEmpty() };
  }
}

export const nativeImage = {
  createFromPath: (file: string): FakeImage => new FakeImage(file),
};

/** A menu item as the template gave it, with its click handler. */
export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  click?: (...args: unknown[]) => void;
}

class FakeMenu implements Named {
  constructor(readonly items: FakeMenuItem[]) {}

  recordAs(): unknown {
    return this.items.map(({ click: _click, ...item }) => item);
  }
}

export const Menu = {
  buildFromTemplate: (template: FakeMenuItem[]): FakeMenu => new FakeMenu(template),
};

export class Tray extends EventEmitter {
  static current: Tray | null = null;
  menu: FakeMenu | null = null;
  #destroyed = false;

  constructor(image: FakeImage) {
    super();
    failIfAsked('Tray');
    record('Tray', 'constructor', image);
    Tray.current = this;
  }

  setImage(image: FakeImage): void {
    record('Tray', 'setImage', image);
  }

  setToolTip(text: string): void {
    record('Tray', 'setToolTip', text);
  }

  setContextMenu(menu: FakeMenu): void {
    record('Tray', 'setContextMenu', menu);
    this.menu = menu;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  destroy(): void {
    record('Tray', 'destroy');
    this.#destroyed = true;
  }
}

let notificationCount = 0;

export class Notification extends EventEmitter implements Named {
  /**
   * Electron keeps a shown notification only weakly: once the app drops its last reference and a garbage
   * collection runs, its `click` handler never fires (electron/electron#16922). The stand-in does the same.
   */
  static readonly shown: WeakRef<Notification>[] = [];
  readonly id = ++notificationCount;

  static isSupported(): boolean {
    return true;
  }

  constructor(readonly options: { title?: string; body?: string }) {
    super();
    record(this.recordAs(), 'constructor', options);
  }

  recordAs(): string {
    return `Notification#${this.id}`;
  }

  show(): void {
    record(this.recordAs(), 'show');
    Notification.shown.push(new WeakRef(this));
  }

  close(): void {
    record(this.recordAs(), 'close');
    this.emit('close', fakeEvent());
  }
}

type Handler = (...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    record('ipcMain', 'handle', channel);
    if (ipcMain.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcMain.handlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    record('ipcMain', 'removeHandler', channel);
    ipcMain.handlers.delete(channel);
  },
  on(channel: string, _listener: Handler): void {
    record('ipcMain', 'on', channel);
  },
};

export const clipboard = {
  writeText: (text: string): void => record('clipboard', 'writeText', text),
};

export const shell = {
  openExternal: async (url: string): Promise<void> => record('shell', 'openExternal', url),
  openPath: async (file: string): Promise<string> => (record('shell', 'openPath', file), ''),
};

const workArea = { x: 0, y: 0, width: 1920, height: 1080 };
export const screen = {
  getAllDisplays: () => [{ id: 1, bounds: workArea, workArea }],
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler: unknown): void =>
      record('session', 'setPermissionRequestHandler', handler),
    setPermissionCheckHandler: (handler: unknown): void =>
      record('session', 'setPermissionCheckHandler', handler),
    /** The system's proxy for `url`: FCM_FAKE_SYSTEM_PROXY (Chromium's form, `PROXY host:port`), else direct. */
    resolveProxy: (url: string): Promise<string> => {
      record('session', 'resolveProxy', url);
      return Promise.resolve(process.env.FCM_FAKE_SYSTEM_PROXY ?? 'DIRECT');
    },
  },
};

export const dialog = {
  showErrorBox: (title: string, content: string): void => record('dialog', 'showErrorBox', title, content),
  /** Answers every question with its cancel button ("Not now"). */
  showMessageBox: async (...args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> => {
    record('dialog', 'showMessageBox', ...args);
    const options = args.at(-1) as { cancelId?: number };
    return { response: options.cancelId ?? 0, checkboxChecked: false };
  },
};

export const nativeTheme = Object.assign(new EventEmitter(), {
  shouldUseDarkColors: process.env[FAKE_ENV.dark] === '1',
  themeSource: 'system',
});

export const powerMonitor = new EventEmitter();

startCommands({ Tray, Notification, ipcMain, nativeTheme, powerMonitor });

export default {
  app,
  BaseWindow: FakeBaseWindow,
  BrowserWindow: FakeBrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  Notification,
  powerMonitor,
  screen,
  session,
  shell,
  Tray,
};
