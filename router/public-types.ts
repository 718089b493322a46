/**
 * The public face of the router library: what the CLI and the Electron main process use to run it
 * in-process. Implemented by `startRouter` in `router/daemon/start-router.ts`, re-exported by `router/index.ts`.
 */
import type { HistoryResponse, ProbeView, RouterEvent, RouterEventType, StateResponse } from './api-types.js';
import type { Time } from './state/clock.js';

/** Where a line of the router's log goes. Lines never carry prompts, completions, keys or upstream URLs. */
export interface RouterLogger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

export interface StartRouterOptions {
  /** @default FCM_ROUTER_PORT of `env` (refused when it is no port), else 19280. 0 picks a free port. */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * Required for a `host` other than loopback. The management API (`/api/*`) and the dashboard page then
   * want the per-start token on every call, reads included. @default false
   */
  allowRemote?: boolean;
  /** Folder for config, breaker state and history. @default the per-user app-data folder + `fcm-router` */
  stateDir?: string;
  /** @default `<stateDir>/config.json`; not with `demo` */
  configPath?: string;
  /** Run over the built-in simulated providers (no keys needed), on `<stateDir>/demo/config.json`. */
  demo?: boolean;
  /** In demo mode, send a trickle of simulated agent requests so the dashboard has data. @default true */
  demoTraffic?: boolean;
  /** Folder holding the built dashboard (`index.html`). @default `dist/renderer` of the package */
  rendererDir?: string;
  /** Environment used to find provider keys. @default process.env */
  env?: Record<string, string | undefined>;
  logger?: RouterLogger;
  /**
   * The clock and the timers the router runs on: every deadline, delay, schedule and debounce is set
   * through it. @default the system's
   */
  time?: Time;
  /** A number in [0, 1), for the exploration share of `fastest` sets. @default Math.random */
  random?: () => number;
  /** Whether the machine looks connected; background probes wait for it. @default its network interfaces */
  isOnline?: () => boolean;
  /** How often background probes are looked for, ms; 0 turns the scheduler off. @default 15000 */
  probeTickMs?: number;
  /**
   * How often due model discoveries are looked for, ms (each keyed provider's model list is fetched at most
   * once a day; the first look comes a minute after start, or sooner with a shorter tick); 0 turns the
   * scheduler off. @default FCM_ROUTER_DISCOVERY_TICK_MS, then 3600000
   */
  discoveryTickMs?: number;
  /** Debounce of state writes. @default 2000 */
  persistDebounceMs?: number;
}

export type RouterEventListener<T extends RouterEventType> = (
  event: Extract<RouterEvent, { type: T }>,
) => void;

/** A running router. */
export interface RouterHandle {
  /** `http://<host>:<port>` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly stateDir: string;
  readonly configPath: string;
  readonly version: string;
  /** The same snapshot `GET /api/state` returns. */
  state(): StateResponse;
  history(limit?: number): HistoryResponse;
  /** Subscribe to router events; returns the unsubscribe function. */
  on<T extends RouterEventType>(type: T, listener: RouterEventListener<T>): () => void;
  /** Pause or resume routing (paused: chat requests get 503 `router_paused`). */
  setPaused(paused: boolean): void;
  isPaused(): boolean;
  /**
   * Probes one model now (a tiny completion through the gate); its result is also its `lastProbe`. Rejects
   * with a `ProbeRefusedError` while routing is paused, for a model not in the config, and for a model off
   * this machine while it is offline, as the dashboard's "probe now" does.
   */
  probeNow(model: string): Promise<ProbeView>;
  /** Runs the probes due now (trials of models whose cooldown passed, idle models); the keys probed. */
  runDueProbes(): Promise<string[]>;
  /**
   * Fetches the model list of each keyed provider not asked for a day (answered or not), one after
   * another; the provider ids asked.
   */
  runDueDiscoveries(): Promise<string[]>;
  /**
   * Sends later calls to https:// providers through the system's proxy `url` (null: directly), as the
   * desktop app follows the system's proxy; `NO_PROXY` and loopback stay direct. Calls under way finish
   * where they are. Logs where calls now go when that changed. Its owner calls it only when the
   * environment names no proxy: the user's proxy wins. Throws `ProxyEnvError` when `url` is not a proxy URL.
   */
  setSystemProxy(url: string | null): void;
  /**
   * Stops listening, lets in-flight requests finish (up to `graceMs` on the router's time, default 10 s;
   * 0 cuts them), flushes state and frees the state folder. Rejects, once stopped, when a state file could
   * not be saved.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}
