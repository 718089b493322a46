/**
 * The stand-in's `app`, following Electron's documented order: `ready` on a later turn, and `quit()` as
 * `before-quit` (cancellable), closing every window (each `close` cancellable), `will-quit`, `quit`, then
 * exit 0. `exit(code)` ends at once, with no events. Test-only.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { record } from './record.js';

/** An Electron-style event: listeners may cancel the default action. */
export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function fakeEvent(extra: Record<string, unknown> = {}): FakeEvent {
  const event = {
    ...extra,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

/** What `app.quit()` needs of a window: close it, false when a listener kept it open. */
export interface Closable {
  close(): boolean;
}

/** The folder holding the package.json of the running main script, as Electron's `getAppPath()`. */
function findAppPath(): string {
  let dir = path.dirname(path.resolve(process.argv[1] ?? '.'));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

class FakeApp extends EventEmitter {
  readonly isPackaged = false;
  readonly windows = new Set<Closable>();
  readonly #paths = new Map<string, string>();
  readonly #appPath = findAppPath();
  readonly #manifest = JSON.parse(readFileSync(path.join(this.#appPath, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  readonly #ready: Promise<void>;
  #isReady = false;

  constructor() {
    super();
    this.#ready = new Promise((resolve) =>
      setImmediate(() => {
        this.#isReady = true;
        record('app', 'ready');
        this.emit('ready', fakeEvent(), {});
        resolve();
      }),
    );
  }

  whenReady(): Promise<void> {
    return this.#ready;
  }

  isReady(): boolean {
    return this.#isReady;
  }

  enableSandbox(): void {
    record('app', 'enableSandbox', { ready: this.#isReady });
    if (this.#isReady) throw new Error('app.enableSandbox() can only be called before app is ready');
  }

  setAppUserModelId(id: string): void {
    record('app', 'setAppUserModelId', id);
  }

  setPath(name: string, value: string): void {
    record('app', 'setPath', name, value);
    this.#paths.set(name, value);
  }

  getPath(name: string): string {
    const set = this.#paths.get(name);
    if (set) return set;
    if (name === 'home') return os.homedir();
    if (name === 'userData') return path.join(os.tmpdir(), `fake-electron-${this.#manifest.name}`);
    return os.tmpdir();
  }

  getAppPath(): string {
    return this.#appPath;
  }

  getVersion(): string {
    return this.#manifest.version;
  }

  getName(): string {
    return this.#manifest.name;
  }

  requestSingleInstanceLock(): boolean {
    record('app', 'requestSingleInstanceLock');
    return true;
  }

  releaseSingleInstanceLock(): void {
    record('app', 'releaseSingleInstanceLock');
  }

  getLoginItemSettings(): { openAtLogin: boolean; wasOpenedAtLogin: boolean } {
    return { openAtLogin: false, wasOpenedAtLogin: false };
  }

  setLoginItemSettings(settings: unknown): void {
    record('app', 'setLoginItemSettings', settings);
  }

  quit(): void {
    record('app', 'quit');
    const beforeQuit = fakeEvent();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return record('app', 'quit-cancelled', 'before-quit');
    for (const window of [...this.windows]) {
      if (!window.close()) return record('app', 'quit-cancelled', 'close');
    }
    const willQuit = fakeEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return record('app', 'quit-cancelled', 'will-quit');
    this.emit('quit', fakeEvent(), 0);
    record('app', 'exit', 0);
    process.exit(0);
  }

  exit(code = 0): void {
    record('app', 'exit', code);
    process.exit(code);
  }
}

export const app = new FakeApp();
