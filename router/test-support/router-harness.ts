/**
 * Starts a real router for integration tests: port 0, a temp dir holding the config file (outside the state
 * dir, so state files can be searched for leaked keys), the state dir and a one-line dashboard that
 * carries the per-start token; the test's time (a `TestClock`: it stands still, and the router's timers fire,
 * only when the test advances it); short persistence debounce; and a logger that keeps every line.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HistoryEntry, ModelStateView } from '../api-types.js';
import type { ConfigInput } from '../config/schema.js';
import type { RouterHandle, RouterLogger } from '../public-types.js';
import { readDaemonFile } from '../daemon/daemon-file.js';
import { startRouter } from '../daemon/start-router.js';
import { deferred, within } from './deferred.js';
import {
  httpRequest,
  openRequest,
  readingRequest,
  type HttpReply,
  type OpenReply,
  type ReadingReply,
} from './http-client.js';
import { TestClock } from './test-clock.js';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  line: string;
}

export interface HarnessOptions {
  config: ConfigInput;
  /** Reuse a temp dir (a restart on the same state). @default a fresh one */
  dir?: string;
  /**
   * The router's time (a restart on the same state passes the first run's). @default a fresh `TestClock`,
   * which moves only when the test advances it
   */
  clock?: TestClock;
  /** @default 10 */
  persistDebounceMs?: number;
  env?: Record<string, string | undefined>;
  /** The router's random numbers (exploration). @default Math.random */
  random?: () => number;
  /**
   * Whether the machine counts as online for background probes. @default always: fake upstreams are on
   * loopback, so the machine's own network does not matter to a test.
   */
  isOnline?: () => boolean;
  /** Start as `--allow-remote` does (on loopback still): the API wants the token on reads too. */
  allowRemote?: boolean;
}

export interface ChatOptions {
  headers?: Record<string, string>;
}

export const DEFAULT_MESSAGES = [{ role: 'user', content: 'Say hello.' }];

/** A running router with helpers; `close()` stops it and removes the temp dir. */
export class RouterHarness {
  constructor(
    readonly router: RouterHandle,
    readonly dir: string,
    readonly clock: TestClock,
    readonly token: string,
    readonly logs: LogLine[],
  ) {}

  get url(): string {
    return this.router.url;
  }

  get stateDir(): string {
    return this.router.stateDir;
  }

  /** `POST /v1/chat/completions` with `body` (messages default to a short prompt) and reads the reply. */
  chat(body: Record<string, unknown> = {}, options: ChatOptions = {}): Promise<HttpReply> {
    return httpRequest(`${this.url}/v1/chat/completions`, this.#chatRequest(body, options));
  }

  /** Starts a chat request and returns at once, to watch a stream arrive (or abort it). */
  openChat(body: Record<string, unknown> = {}, options: ChatOptions = {}): OpenReply {
    return openRequest(`${this.url}/v1/chat/completions`, this.#chatRequest(body, options));
  }

  /** Starts a chat request and reads its reply as it arrives, to wait for a piece of a stream. */
  readChat(body: Record<string, unknown> = {}, options: ChatOptions = {}): ReadingReply {
    return readingRequest(`${this.url}/v1/chat/completions`, this.#chatRequest(body, options));
  }

  /** `GET <path>` */
  get(pathname: string, headers: Record<string, string> = {}): Promise<HttpReply> {
    return httpRequest(`${this.url}${pathname}`, { headers });
  }

  /** A dashboard API call with the token (or without it, with `withToken: false`). */
  api(method: string, pathname: string, body?: unknown, withToken = true): Promise<HttpReply> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (withToken) headers['x-fcm-token'] = this.token;
    return httpRequest(`${this.url}${pathname}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** One model's row of `state()`; throws when the snapshot does not list it. */
  model(key: string): ModelStateView {
    const view = this.router.state().models.find((model) => model.key === key);
    if (!view) throw new Error(`state() does not list ${key}`);
    return view;
  }

  /** The newest history entry; throws when there is none. */
  lastEntry(): HistoryEntry {
    const entry = this.router.history(1).entries[0];
    if (!entry) throw new Error('history is empty');
    return entry;
  }

  /**
   * The history entry of the next request to finish. Call it before the action that ends the request, so
   * the event cannot be missed.
   */
  nextEntry(): Promise<HistoryEntry> {
    const done = deferred<HistoryEntry>();
    const off = this.router.on('request', (event) => {
      off();
      done.resolve(event.entry);
    });
    return within(done.promise, 'the next request to finish');
  }

  /** Every logged line joined, for searching. */
  logText(): string {
    return this.logs.map((entry) => entry.line).join('\n');
  }

  /**
   * Stops the router (state is flushed); the temp dir stays for a restart. A request still in flight is cut,
   * not given a grace on a clock no one moves any more.
   */
  stop(): Promise<void> {
    return this.router.stop({ graceMs: 0 });
  }

  /** Stops the router and removes the temp dir. */
  async close(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }

  #chatRequest(body: Record<string, unknown>, options: ChatOptions) {
    return {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer fcm-local', ...options.headers },
      body: JSON.stringify({ model: 'fcm', messages: DEFAULT_MESSAGES, ...body }),
    };
  }
}

const TOKEN_PAGE = '<!doctype html><meta name="fcm-token" content="__FCM_TOKEN__" />';

/**
 * Starts a router over `options.config` in a temp dir: `<dir>/config.json` (0600), state in
 * `<dir>/state`, dashboard page in `<dir>/renderer`.
 */
export async function startHarness(options: HarnessOptions): Promise<RouterHarness> {
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'fcm-it-')));
  const configPath = path.join(dir, 'config.json');
  const rendererDir = path.join(dir, 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), TOKEN_PAGE);
  await writeFile(configPath, JSON.stringify(options.config, null, 2));
  await chmod(configPath, 0o600);
  const logs: LogLine[] = [];
  const logger: RouterLogger = {
    info: (line) => logs.push({ level: 'info', line }),
    warn: (line) => logs.push({ level: 'warn', line }),
    error: (line) => logs.push({ level: 'error', line }),
  };
  const clock = options.clock ?? new TestClock();
  let router: RouterHandle;
  try {
    router = await startRouter({
      port: 0,
      stateDir: path.join(dir, 'state'),
      configPath,
      rendererDir,
      env: options.env ?? {},
      logger,
      time: clock,
      ...(options.random ? { random: options.random } : {}),
      isOnline: options.isOnline ?? (() => true),
      persistDebounceMs: options.persistDebounceMs ?? 10,
      // Tests run probe passes themselves, on their clock.
      probeTickMs: 0,
      // Nor does a model list get fetched unless a test asks.
      discoveryTickMs: 0,
      allowRemote: options.allowRemote,
    });
  } catch (error) {
    if (options.dir === undefined) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // A remote-mode page wants the token itself: scripts read it from daemon.json, as the harness does then.
  const token = options.allowRemote
    ? ((await readDaemonFile(path.join(dir, 'state')))?.token ?? '')
    : (/name="fcm-token" content="([^"]+)"/.exec((await httpRequest(`${router.url}/`)).text)?.[1] ?? '');
  return new RouterHarness(router, dir, clock, token, logs);
}
