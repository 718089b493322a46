import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile } from './config/config-store.js';
import type { ConfigWatch } from './config/config-watch.js';
import { LiveConfig } from './config/live-config.js';
import { logFileChange, watchLiveConfig } from './config/watch-live-config.js';
import type { ConfigIssue } from './config/schema.js';
import { resolveStateDir } from './config/state-dir.js';
import { prepareDemo } from './demo/demo-setup.js';
import { startDemoTraffic } from './demo/demo-traffic.js';
import { DISCOVERY_TICK_MS, DiscoverySchedule, routerDiscoveryDeps } from './engine/discovery-schedule.js';
import { EventBus } from './engine/event-bus.js';
import { RouterEngine } from './engine/router-engine.js';
import { packageRoot, packageVersion } from './package-info.js';
import { acquireDaemonLock, StateDirError, type DaemonLock } from './daemon-lock.js';
import { writeDaemonFile } from './daemon-file.js';
import type { RouterHandle, RouterLogger, StartRouterOptions } from './public-types.js';
import { isLoopbackHost } from './server/guards.js';
import { createRouterServer, type RouterServer } from './server/http-server.js';
import { openStateStores, settleAll, type StateStores } from './state-stores.js';
import { systemClock, type Clock } from './state/clock.js';
import { ModelStatsBook } from './state/model-stats.js';
import { DiscoveryBook } from './state/discovery-book.js';
import { historyResponse } from './state/request-history.js';
import { UpstreamClient } from './upstream/upstream-client.js';

export const DEFAULT_PORT = 19280;

/**
 * How many connections the kernel may hold for the router before it accepts them (it caps this at
 * net.core.somaxconn, 4096 on Linux since 5.4). Node's default, 511, is too few for a burst: Node accepts one
 * connection per event-loop turn, a turn grows long while many clients are served, and a SYN that finds the
 * queue full is dropped and retried only after 1 s, then 3 s, 7 s, 15 s.
 */
const LISTEN_BACKLOG = 4096;

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

/** Picks the port: the option, then FCM_ROUTER_PORT, then 19280. */
function choosePort(option: number | undefined, env: Record<string, string | undefined>): number {
  if (option !== undefined) return option;
  const fromEnv = Number(env.FCM_ROUTER_PORT);
  return Number.isInteger(fromEnv) && fromEnv >= 0 && fromEnv < 65536 && env.FCM_ROUTER_PORT
    ? fromEnv
    : DEFAULT_PORT;
}

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
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const baseDir = resolveStateDir({
    stateDir: options.stateDir,
    env,
    platform: process.platform,
    homedir: os.homedir(),
  });
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new Error(
      `host ${host} is not a loopback address: set allowRemote (the CLI's --allow-remote) to accept connections from the network`,
    );
  }
  // Before anything in the folder is read or written: a second daemon on it must not touch a byte.
  const startedAt = clock();
  const { lock, tookOver } = await acquireDaemonLock({ stateDir: baseDir, pid: process.pid, startedAt });
  if (tookOver) {
    logger.warn(
      `took over the lock of ${baseDir}: fcm-router pid ${tookOver.pid ?? 'unknown'} left it and is no longer running`,
    );
  }
  try {
    return await startLocked(options, { env, clock, logger, baseDir, startedAt, lock });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Listens on `port` and `host`; rejects with the server's error (a port in use, say). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The config a start runs on: the demo's (in its own folder) or the file's, validated; the state folder
 * is made (0700) first. A config with problems is a `ConfigError` naming each.
 */
async function loadStartConfig(options: StartRouterOptions, baseDir: string) {
  const demo = options.demo ? await prepareDemo(baseDir, options.configPath) : null;
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

/**
 * The state a router runs on: its event bus, the providers' model lists as last fetched (the live config
 * resolves with them), the live config (applied to `ref.engine` on change) and the state files.
 */
async function openLiveState(
  options: StartRouterOptions,
  started: LockedStart,
  stateDir: string,
  configPath: string,
  loaded: Extract<Awaited<ReturnType<typeof loadConfigFile>>, { ok: true }>,
  ref: { engine: RouterEngine | null },
) {
  const { env, clock, logger } = started;
  const debounceMs = options.persistDebounceMs ?? 2000;
  const events = new EventBus((error) =>
    logger.warn(`event listener failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  const discovery = new DiscoveryBook({
    file: path.join(stateDir, 'discovery.json'),
    clock,
    debounceMs,
    logger,
  });
  await discovery.load();
  // Before the stores: restoring breakers reads the breaker settings from the live config.
  const live = new LiveConfig({
    path: configPath,
    raw: loaded.raw,
    config: loaded.config,
    revision: loaded.revision,
    env,
    discovered: () => discovery.all,
    onApply: (resolved, changed) => {
      ref.engine?.applyConfig(resolved, changed);
      logger.info(`config applied: ${changed.join(', ')}`);
    },
    onFileChange: (change) => {
      logFileChange(logger, configPath, change);
      events.emit({ type: 'config-file', path: configPath, ...change });
    },
  });
  const onModelChange = (key: string): void => ref.engine?.emitModel(key);
  const stores = await openStateStores({ stateDir, clock, debounceMs, logger, live, events, onModelChange });
  return { events, discovery, live, stores };
}

/**
 * Listens, then records where: the lock and `daemon.json` (with the per-start token) name the URL. A
 * failure closes what was opened (`onFail`); one of the folder's is a `StateDirError`.
 */
async function listenAndPublish(
  server: Server,
  wantedPort: number,
  host: string,
  started: LockedStart,
  daemon: { version: string; demo: boolean; token: string; onFail: () => Promise<unknown> },
): Promise<{ url: string; port: number }> {
  try {
    await listen(server, wantedPort, host);
  } catch (error) {
    await daemon.onFail();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    await started.lock.listening(port, url);
    const { version, demo, token } = daemon;
    await writeDaemonFile(started.baseDir, {
      pid: process.pid,
      port,
      host,
      url,
      version,
      startedAt: started.startedAt,
      demo,
      token,
    });
  } catch (error) {
    server.close();
    server.closeAllConnections();
    await daemon.onFail();
    throw new StateDirError(started.baseDir, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  return { url, port };
}

interface LockedStart {
  env: Record<string, string | undefined>;
  clock: Clock;
  logger: RouterLogger;
  baseDir: string;
  startedAt: number;
  lock: DaemonLock;
}

async function startLocked(options: StartRouterOptions, started: LockedStart): Promise<RouterHandle> {
  const { env, clock, logger, baseDir, startedAt, lock } = started;
  const host = options.host ?? '127.0.0.1';
  const tokenForReads = options.allowRemote === true;
  const { demo, stateDir, configPath, loaded } = await loadStartConfig(options, baseDir);

  const ref: { engine: RouterEngine | null } = { engine: null };
  const { events, discovery, live, stores } = await openLiveState(
    options,
    started,
    stateDir,
    configPath,
    loaded,
    ref,
  );
  const { quotas, history, counters } = stores;
  const upstream = new UpstreamClient();
  const random = options.random ? { random: options.random } : {};
  const online = options.isOnline ? { isOnline: options.isOnline } : {};
  const modelStats = new ModelStatsBook();
  const parts = {
    ...stores,
    resolved: live.resolved,
    modelStats,
    upstream,
    events,
    clock,
    logger,
    ...random,
    ...online,
  };
  const engine = (ref.engine = new RouterEngine(parts));
  const configWatch = watchLiveConfig(live, logger);
  const version = packageVersion();
  const token = randomBytes(24).toString('base64url');
  const { server, events: eventsRoute } = createRouterServer({
    engine,
    live,
    history,
    counters,
    quotas,
    discovery,
    events,
    rendererDir: options.rendererDir ?? path.join(packageRoot(), 'dist', 'renderer'),
    token,
    tokenForReads,
    version,
    startedAt,
    clock,
    logger,
  });

  const { url, port } = await listenAndPublish(server, choosePort(options.port, env), host, started, {
    version,
    demo: demo !== null,
    token,
    onFail: () => {
      configWatch.close();
      return Promise.all([upstream.close(), demo?.close()]);
    },
  });
  if (options.probeTickMs !== 0) engine.probes.start(options.probeTickMs);
  const discoveries = new DiscoverySchedule(routerDiscoveryDeps(live, quotas, discovery, clock, logger));
  const discoveryTickMs = chooseDiscoveryTick(options.discoveryTickMs, env, logger);
  if (discoveryTickMs > 0) discoveries.start(discoveryTickMs);
  const traffic = demo && options.demoTraffic !== false ? startDemoTraffic(url) : null;

  return routerHandle({
    url,
    port,
    host,
    stateDir,
    configPath,
    version,
    engine,
    stores,
    discovery,
    discoveries,
    configWatch,
    events,
    server,
    eventsRoute,
    upstream,
    closeDemo: async () => {
      traffic?.stop();
      await demo?.close();
    },
    baseDir,
    lock,
  });
}

/** What a running router is made of, for its handle. */
interface RunningParts {
  url: string;
  port: number;
  host: string;
  stateDir: string;
  configPath: string;
  version: string;
  engine: RouterEngine;
  stores: StateStores;
  discovery: DiscoveryBook;
  discoveries: DiscoverySchedule;
  configWatch: ConfigWatch;
  events: EventBus;
  server: Server;
  eventsRoute: RouterServer['events'];
  upstream: UpstreamClient;
  /** Stops the demo's traffic and its simulated providers (nothing outside demo mode). */
  closeDemo: () => Promise<void>;
  baseDir: string;
  lock: DaemonLock;
}

/**
 * The handle of a running router. `stop` stops listening, lets in-flight requests finish (up to the
 * grace), writes every state file, and frees the state folder; calling it again returns the same stop.
 */
function routerHandle(parts: RunningParts): RouterHandle {
  const { engine, stores, server, eventsRoute } = parts;
  let stopping: Promise<void> | null = null;
  const stop = async (graceMs: number): Promise<void> => {
    parts.configWatch.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    eventsRoute.closeAll();
    await Promise.all([engine.probes.stop(), parts.discoveries.stop()]);
    await engine.waitIdle(graceMs);
    server.closeAllConnections();
    await closed;
    const saved = settleAll([stores.close(), parts.discovery.close()]);
    await saved.catch(() => undefined);
    await Promise.all([parts.upstream.close(), parts.closeDemo()]);
    // A folder that turned read-only keeps these files; the next start takes the stale lock over.
    await rm(path.join(parts.baseDir, 'daemon.json'), { force: true }).catch(() => undefined);
    await parts.lock.release();
    // Stopped either way; a state file that could not be saved makes the stop fail (exit 1 in the CLI).
    await saved;
  };
  return {
    url: parts.url,
    port: parts.port,
    host: parts.host,
    stateDir: parts.stateDir,
    configPath: parts.configPath,
    version: parts.version,
    state: () => engine.state(),
    history: (limit) => historyResponse(stores.history, stores.counters, limit),
    on: (type, listener) => parts.events.on(type, listener),
    setPaused: (paused) => engine.setPaused(paused),
    isPaused: () => engine.isPaused(),
    probeNow: (model) => engine.probes.probe(model),
    runDueProbes: async () => (await engine.probes.pass()).map((probe) => probe.key),
    runDueDiscoveries: () => parts.discoveries.pass(),
    stop: (stopOptions = {}) => (stopping ??= stop(stopOptions.graceMs ?? 10_000)),
  };
}
