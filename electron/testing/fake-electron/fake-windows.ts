/**
 * The stand-in's `BrowserWindow` and `webContents`. `loadURL` really fetches an http(s) page, so a router
 * that is down gives `did-fail-load` (ERR_CONNECTION_REFUSED, -102) as Chromium does; any HTTP answer, and
 * any `data:` page, counts as loaded. `ready-to-show` follows the first page that loaded. Test-only.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { app, fakeEvent, type Closable } from './fake-app.js';
import { record, type Named } from './record.js';

/** A page that loaded ends at `url`, after the redirects it was sent through. */
type LoadOutcome = { ok: true; url: string } | { ok: false; code: number; description: string };

function fetchPage(url: string, redirects = 0): Promise<LoadOutcome> {
  if (url.startsWith('data:')) return Promise.resolve({ ok: true, url });
  if (!/^https?:/.test(url))
    return Promise.resolve({ ok: false, code: -300, description: 'ERR_INVALID_URL' });
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 5000 }, (res) => {
      res.resume();
      const location = res.headers.location;
      // Followed as Chromium does; the page's URL is where it ended.
      if (location && res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400) {
        if (redirects >= 5) return resolve({ ok: false, code: -310, description: 'ERR_TOO_MANY_REDIRECTS' });
        res.on('end', () => resolve(fetchPage(new URL(location, url).href, redirects + 1)));
        return;
      }
      res.on('end', () => resolve({ ok: true, url }));
      res.on('error', () => resolve({ ok: false, code: -2, description: 'ERR_FAILED' }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ECONNREFUSED'
          ? { ok: false, code: -102, description: 'ERR_CONNECTION_REFUSED' }
          : { ok: false, code: -2, description: 'ERR_FAILED' },
      ),
    );
  });
}

let nextId = 1;

export class FakeWebContents extends EventEmitter implements Named {
  readonly id = nextId++;
  #url = '';
  #destroyed = false;

  constructor(private readonly owner: FakeBrowserWindow) {
    super();
  }

  recordAs(): string {
    return `webContents#${this.id}`;
  }

  getURL(): string {
    return this.#url;
  }

  async loadURL(url: string): Promise<void> {
    record(this.recordAs(), 'loadURL', url);
    const outcome = await fetchPage(url);
    if (this.#destroyed) return;
    // Chromium shows its error page under the failed URL.
    this.#url = outcome.ok ? outcome.url : url;
    if (!outcome.ok) {
      record(this.recordAs(), 'did-fail-load', outcome.code, outcome.description, url);
      this.emit('did-fail-load', fakeEvent(), outcome.code, outcome.description, url, true, 0, 0);
      throw new Error(`${outcome.description} (${outcome.code}) loading '${url}'`);
    }
    record(this.recordAs(), 'did-finish-load', outcome.url);
    this.emit('did-finish-load');
    this.owner.painted();
  }

  reload(): void {
    record(this.recordAs(), 'reload');
    // Electron's reload() returns nothing; a failure surfaces only as did-fail-load.
    this.loadURL(this.#url).catch(() => undefined);
  }

  setWindowOpenHandler(handler: unknown): void {
    record(this.recordAs(), 'setWindowOpenHandler', handler);
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  destroy(): void {
    this.#destroyed = true;
  }
}

interface WindowOptions {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  show?: boolean;
  backgroundColor?: string;
}

export class FakeBrowserWindow extends EventEmitter implements Named, Closable {
  static readonly all: FakeBrowserWindow[] = [];
  readonly id = nextId++;
  readonly webContents: FakeWebContents;
  #visible: boolean;
  #destroyed = false;
  #painted = false;
  readonly #bounds: { x: number; y: number; width: number; height: number };

  constructor(options: WindowOptions = {}) {
    super();
    record('BrowserWindow', 'constructor', options);
    this.#visible = options.show !== false;
    this.#bounds = {
      x: options.x ?? 0,
      y: options.y ?? 0,
      width: options.width ?? 800,
      height: options.height ?? 600,
    };
    this.webContents = new FakeWebContents(this);
    FakeBrowserWindow.all.push(this);
    app.windows.add(this);
    app.emit('web-contents-created', fakeEvent(), this.webContents);
  }

  recordAs(): string {
    return `BrowserWindow#${this.id}`;
  }

  /** Called by its web contents when a page has painted: `ready-to-show`, the first time only. */
  painted(): void {
    if (this.#painted) return;
    this.#painted = true;
    record(this.recordAs(), 'ready-to-show');
    this.emit('ready-to-show');
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }

  show(): void {
    record(this.recordAs(), 'show');
    this.#visible = true;
  }

  hide(): void {
    record(this.recordAs(), 'hide');
    this.#visible = false;
  }

  focus(): void {
    record(this.recordAs(), 'focus');
  }

  isVisible(): boolean {
    return this.#visible;
  }

  isMinimized(): boolean {
    return false;
  }

  restore(): void {
    record(this.recordAs(), 'restore');
  }

  maximize(): void {
    record(this.recordAs(), 'maximize');
  }

  isMaximized(): boolean {
    return false;
  }

  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return { ...this.#bounds };
  }

  setBackgroundColor(colour: string): void {
    record(this.recordAs(), 'setBackgroundColor', colour);
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  close(): boolean {
    if (this.#destroyed) return true;
    const event = fakeEvent();
    this.emit('close', event);
    record(this.recordAs(), 'close', { prevented: event.defaultPrevented });
    if (event.defaultPrevented) return false;
    this.destroy();
    return true;
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.webContents.destroy();
    app.windows.delete(this);
    this.emit('closed');
  }
}

/** A window without web contents (Electron's `BaseWindow`): only its options and events matter here. */
export class FakeBaseWindow extends EventEmitter implements Named, Closable {
  static readonly all: FakeBaseWindow[] = [];
  readonly id = nextId++;
  #destroyed = false;

  constructor(options: WindowOptions = {}) {
    super();
    record('BaseWindow', 'constructor', options);
    FakeBaseWindow.all.push(this);
    app.windows.add(this);
  }

  recordAs(): string {
    return `BaseWindow#${this.id}`;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  close(): boolean {
    this.destroy();
    return true;
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    record(this.recordAs(), 'destroy');
    app.windows.delete(this);
    this.emit('closed');
  }
}
