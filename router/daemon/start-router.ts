/**
 * Starts a router in this process, in named steps: the lock on the state folder, the config, the state it
 * runs on, the engine (which then follows the config and the stores), the server, the background work.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile } from '../config/config-store.js';
import { LiveConfig } from '../config/live-config.js';
import { logFileChange } from '../config/watch-live-config.js';
import type { ConfigIssue } from '../config/schema.js';
import { resolveStateDir } from '../config/state-dir.js';
import { DEMO_CATALOGUE } from '../demo/demo-config.js';
import { prepareDemo } from '../demo/demo-setup.js';
import { startDemoTraffic } from '../demo/demo-traffic.js';
import {
  DISCOVERY_TICK_MS,
  DiscoverySchedule,
  routerDiscoveryDeps,
} from '../engine/watch/discovery-schedule.js';
import { EventBus } from '../engine/event-bus.js';
import { RouterEngine } from '../engine/router-engine.js';
import { acquireDaemonLock, StateDirError } from './daemon-lock.js';
import type { RouterHandle, RouterLogger, StartRouterOptions } from '../public-types.js';
import { isLoopbackHost } from '../config/loopback.js';
import { routerHandle } from './router-handle.js';
import { openStateStores, type StateStores } from './state-stores.js';
import { systemTime } from '../state/clock.js';
import { ModelStatsBook } from '../state/model-stats.js';
import { DiscoveryBook } from '../state/discovery-book.js';
import { agentProxyWarning, proxyLine, readOutboundProxy } from '../upstream/outbound-proxy.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { DEFAULT_PORT, portFromEnv } from '../config/port-setting.js';
import { serve, type LockedStart } from './start-serving.js';

/** The config file is invalid: the router refuses to start and names every problem. */
export class ConfigError extends Error {
  readonly code = 'FCM_INVALID_CONFIG';
  constructor(
    readonly file: string,
    readonly issues: ConfigIssue[],
  ) {
    super(
      `invalid config ${file}:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

const silentLogger: RouterLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * How often due model discoveries are looked for: the option, then FCM_ROUTER_DISCOVERY_TICK_MS (0 turns
 * the schedule off), then hourly. A malformed variable is named in a warning and the default used.
 */
function chooseDiscoveryTick(
  option: number | undefined,
  env: Record<string, string | undefined>,
  logger: RouterLogger,
): number {
  if (option !== undefined) return option;
  const raw = env.FCM_ROUTER_DISCOVERY_TICK_MS;
  if (raw === undefined || raw === '') return DISCOVERY_TICK_MS;
  const fromEnv = Number(raw);
  if (Number.isSafeInteger(fromEnv) && fromEnv >= 0) return fromEnv;
  logger.warn(
    `FCM_ROUTER_DISCOVERY_TICK_MS is not a whole number of milliseconds (0 turns it off): checking every ${DISCOVERY_TICK_MS} ms`,
  );
  return DISCOVERY_TICK_MS;
}

/**
 * Starts a router in this process: loads (and validates) the config, restores breakers, pauses and
 * history from the state dir, and listens. The CLI daemon and the desktop app both run exactly this.
 */
export async function startRouter(options: StartRouterOptions = {}): Promise<RouterHandle> {
  const env = options.env ?? process.env;
  const time = options.time ?? systemTime;
  const logger = options.logger ?? silentLogger;
  const baseDir = resolveStateDir({
    stateDir: options.stateDir,
    env,
    platform: process.platform,
    homedir: os.homedir(),
  });
  if (options.demo === true && options.configPath !== undefined) {
    throw new Error(
      `demo mode keeps its own config in ${path.join(baseDir, 'demo', 'config.json')}: it does not take configPath (${options.configPath})`,
    );
  }
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new Error(
      `host ${host} is not a loopback address: set allowRemote (the CLI's --allow-remote) to accept connections from the network`,
    );
  }
  const port = options.port ?? portFromEnv(env) ?? DEFAULT_PORT;
  const proxy = readOutboundProxy(env);
  // Before anything in the folder is read or written: a second daemon on it must not touch a byte.
  const startedAt = time.now();
  const { lock, tookOver } = await acquireDaemonLock({ stateDir: baseDir, pid: process.pid, startedAt });
  if (tookOver) {
    const pid = tookOver.pid ?? 'unknown';
    logger.warn(
      tookOver.pidAlive
        ? `took over the lock of ${baseDir}: pid ${pid} holds it but no fcm-router answers for it at ${tookOver.url} (that pid now belongs to another process)`
        : `took over the lock of ${baseDir}: fcm-router pid ${pid} left it and is no longer running`,
    );
  }
  try {
    if (proxy !== null) logger.info(proxyLine(proxy));
    const agentWarning = agentProxyWarning(env);
    if (agentWarning !== null) logger.warn(agentWarning);
    const started = { env, proxy, time, logger, baseDir, startedAt, lock };
    return await startLocked({ ...options, port }, started);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * The config a start runs on: the demo's (in its own folder) or the file's, validated; the state folder
 * is made (0700) first. A config with problems is a `ConfigError` naming each.
 */
async function loadStartConfig(options: StartRouterOptions, baseDir: string) {
  const demo = options.demo ? await prepareDemo(baseDir) : null;
  const stateDir = demo?.stateDir ?? baseDir;
  const configPath = demo?.configPath ?? options.configPath ?? path.join(stateDir, 'config.json');
  await mkdir(stateDir, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    throw new StateDirError(stateDir, error.code ?? error.message);
  });
  const loaded = demo ? demo.loaded : await loadConfigFile(configPath);
  if (!loaded.ok) {
    await demo?.close();
    throw new ConfigError(configPath, loaded.issues);
  }
  return { demo, stateDir, configPath, loaded };
}

type StartConfig = Awaited<ReturnType<typeof loadStartConfig>>;

/** The state a router runs on, opened before its engine. */
interface LiveState {
  events: EventBus;
  /** The providers' model lists as last fetched: the live config resolves with them. */
  discovery: DiscoveryBook;
  live: LiveConfig;
  stores: StateStores;
}

/**
 * Opens the state a router runs on: its event bus, the providers' model lists, the live config (the
 * stores read breaker settings from it, so it comes first) and the state files. Nothing here knows the
 * engine: it subscribes to the config and the stores once it exists ({@link startEngine}).
 */
async function openLiveState(
  options: StartRouterOptions,
  started: LockedStart,
  config: StartConfig,
): Promise<LiveState> {
  const { env, time, logger } = started;
  const { demo, stateDir, configPath, loaded } = config;
  const debounceMs = options.persistDebounceMs ?? 2000;
  const events = new EventBus((error) =>
    logger.warn(`event listener failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  const discovery = new DiscoveryBook({
    file: path.join(stateDir, 'discovery.json'),
    time,
    debounceMs,
    logger,
  });
  await discovery.load();
  const live = new LiveConfig({
    path: configPath,
    raw: loaded.raw,
    config: loaded.config,
    revision: loaded.revision,
    env,
    discovered: () => discovery.all,
    ...(demo === null ? {} : { catalogue: DEMO_CATALOGUE }),
    onFileChange: (change) => {
      logFileChange(logger, configPath, change);
      events.emit({ type: 'config-file', path: configPath, ...change });
    },
  });
  const stores = await openStateStores({ stateDir, time, debounceMs, logger, live, events });
  return { events, discovery, live, stores };
}

/**
 * The engine over the live state, with its own upstream client. From here on it routes with each config
 * applied and tells the dashboard of each model whose state changed.
 */
function startEngine(
  options: StartRouterOptions,
  started: LockedStart,
  state: LiveState,
): { engine: RouterEngine; upstream: UpstreamClient } {
  const { time, logger } = started;
  const upstream = new UpstreamClient(started.proxy);
  const engine = new RouterEngine({
    ...state.stores,
    resolved: state.live.resolved,
    modelStats: new ModelStatsBook(),
    upstream,
    events: state.events,
    time,
    logger,
    ...(options.random ? { random: options.random } : {}),
    ...(options.isOnline ? { isOnline: options.isOnline } : {}),
  });
  state.live.onApplied((resolved, changed) => {
    engine.applyConfig(resolved, changed);
    // A provider's fetched model list has its own line ("model discovery of …"): no second one per provider.
    if (changed.length !== 1 || changed[0] !== 'discovery')
      logger.info(`config applied: ${changed.join(', ')}`);
  });
  state.stores.onModelChange((key) => engine.emitModel(key));
  return { engine, upstream };
}

/** Background work, once the router listens: probes, the daily model discovery and the demo's traffic. */
function startBackground(
  options: StartRouterOptions,
  started: LockedStart,
  parts: {
    config: StartConfig;
    state: LiveState;
    engine: RouterEngine;
    upstream: UpstreamClient;
    url: string;
  },
): { discoveries: DiscoverySchedule; closeDemo: () => Promise<void> } {
  const { env, time, logger } = started;
  const { live, stores, discovery } = parts.state;
  if (options.probeTickMs !== 0) parts.engine.probes.start(options.probeTickMs);
  const discoveryParts = { live, quotas: stores.quotas, discovery, time, upstream: parts.upstream };
  const discoveries = new DiscoverySchedule(routerDiscoveryDeps(discoveryParts, logger));
  const discoveryTickMs = chooseDiscoveryTick(options.discoveryTickMs, env, logger);
  if (discoveryTickMs > 0) discoveries.start(discoveryTickMs);
  const { demo } = parts.config;
  const traffic = demo && options.demoTraffic !== false ? startDemoTraffic(parts.url, time) : null;
  const closeDemo = async (): Promise<void> => {
    traffic?.stop();
    await demo?.close();
  };
  return { discoveries, closeDemo };
}

/** A start in named steps, once the state folder is ours: config, state, engine, server, background work. */
async function startLocked(options: StartRouterOptions, started: LockedStart): Promise<RouterHandle> {
  const config = await loadStartConfig(options, started.baseDir);
  const state = await openLiveState(options, started, config);
  const { engine, upstream } = startEngine(options, started, state);
  const serving = await serve(options, started, { state, engine, upstream, demo: config.demo });
  const background = startBackground(options, started, { config, state, engine, upstream, url: serving.url });
  return routerHandle({
    ...serving,
    ...background,
    ...state,
    stateDir: config.stateDir,
    configPath: config.configPath,
    engine,
    upstream,
    baseDir: started.baseDir,
    lock: started.lock,
    env: started.env,
    logger: started.logger,
  });
}
