import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfigFile } from './config/config-store.js';
import { LiveConfig } from './config/live-config.js';
import type { ConfigIssue } from './config/schema.js';
import { resolveStateDir } from './config/state-dir.js';
import { prepareDemo } from './demo/demo-setup.js';
import { startDemoTraffic } from './demo/demo-traffic.js';
import { EventBus } from './engine/event-bus.js';
import { RouterEngine } from './engine/router-engine.js';
import { packageRoot, packageVersion } from './package-info.js';
import { acquireDaemonLock, StateDirError, type DaemonLock } from './daemon-lock.js';
import { writeDaemonFile } from './daemon-file.js';
import type { RouterHandle, RouterLogger, StartRouterOptions } from './public-types.js';
import { isLoopbackHost } from './server/guards.js';
import { createRouterServer } from './server/http-server.js';
import { BreakerStore } from './state/breaker-store.js';
import { DailyCounters } from './state/daily-counters.js';
import { systemClock, type Clock } from './state/clock.js';
import { LatencyBook } from './state/latency-book.js';
import { ModelStatsBook } from './state/model-stats.js';
import { DiscoveryBook } from './state/discovery-book.js';
import { QuotaBook } from './state/quota-book.js';
import { RequestHistory } from './state/request-history.js';
import { UpstreamClient } from './upstream/upstream-client.js';

export const DEFAULT_PORT = 19280;

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
  const debounceMs = options.persistDebounceMs ?? 2000;
  const host = options.host ?? '127.0.0.1';
  const tokenForReads = options.allowRemote === true;
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

  let engine: RouterEngine | null = null;
  // Before the stores: restoring breakers reads the breaker settings from the live config.
  const events = new EventBus((error) =>
    logger.warn(`event listener failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  // Before the live config: it resolves with the providers' model lists as last fetched.
  const discovery = new DiscoveryBook({
    file: path.join(stateDir, 'discovery.json'),
    clock,
    debounceMs,
    logger,
  });
  await discovery.load();
  const live = new LiveConfig({
    path: configPath,
    raw: loaded.raw,
    config: loaded.config,
    env,
    discovered: () => discovery.all,
    onApply: (resolved, changed) => {
      engine?.applyConfig(resolved, changed);
      logger.info(`config applied: ${changed.join(', ')}`);
    },
  });
  const breakers = new BreakerStore({
    file: path.join(stateDir, 'breakers.json'),
    clock,
    debounceMs,
    logger,
    settings: () => live.resolved.config.router.breaker,
    onChange: (key) => engine?.emitModel(key),
  });
  const quotas = new QuotaBook({
    file: path.join(stateDir, 'quotas.json'),
    clock,
    debounceMs,
    logger,
    onChange: (scope) => {
      if (scope.model) engine?.emitModel(scope.model);
      if (scope.provider) {
        for (const model of live.resolved.models.values())
          if (model.provider === scope.provider) engine?.emitModel(model.key);
      }
    },
  });
  const history = new RequestHistory({
    file: path.join(stateDir, 'history.json'),
    clock,
    debounceMs,
    logger,
  });
  const latency = new LatencyBook({ file: path.join(stateDir, 'latency.json'), clock, debounceMs, logger });
  const counters = new DailyCounters({
    file: path.join(stateDir, 'counters.json'),
    clock,
    debounceMs,
    logger,
  });
  await Promise.all([breakers.load(), quotas.load(), history.load(), latency.load(), counters.load()]);
  // Every finished request, however many: the history keeps only the last 500.
  events.on('request', (event) => counters.record(event.entry));

  const upstream = new UpstreamClient();
  engine = new RouterEngine({
    resolved: live.resolved,
    breakers,
    quotas,
    history,
    modelStats: new ModelStatsBook(),
    latency,
    ...(options.random ? { random: options.random } : {}),
    upstream,
    events,
    clock,
    logger,
  });
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

  const port = choosePort(options.port, env);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await Promise.all([upstream.close(), demo?.close()]);
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  try {
    await lock.listening(actualPort, url);
    await writeDaemonFile(baseDir, {
      pid: process.pid,
      port: actualPort,
      host,
      url,
      version,
      startedAt,
      demo: Boolean(demo),
      token,
    });
  } catch (error) {
    server.close();
    server.closeAllConnections();
    await Promise.all([upstream.close(), demo?.close()]);
    throw new StateDirError(baseDir, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  if (options.probeTickMs !== 0) engine.probes.start(options.probeTickMs);
  const traffic = demo && options.demoTraffic !== false ? startDemoTraffic(url) : null;

  let stopping: Promise<void> | null = null;
  const liveEngine = engine;
  return {
    url,
    port: actualPort,
    host,
    stateDir,
    configPath,
    version,
    state: () => liveEngine.state(),
    history: (limit) => ({
      entries: history.list(limit),
      stats: { ...history.stats(), ...counters.todayStats() },
    }),
    on: (type, listener) => events.on(type, listener),
    setPaused: (paused) => liveEngine.setPaused(paused),
    isPaused: () => liveEngine.isPaused(),
    probeNow: (model) => liveEngine.probes.probe(model),
    runDueProbes: async () => (await liveEngine.probes.pass()).map((probe) => probe.key),
    stop: (stopOptions = {}) => {
      stopping ??= (async () => {
        traffic?.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        eventsRoute.closeAll();
        await liveEngine.probes.stop();
        await liveEngine.waitIdle(stopOptions.graceMs ?? 10_000);
        server.closeAllConnections();
        await closed;
        await Promise.all([
          breakers.close(),
          quotas.close(),
          history.close(),
          latency.close(),
          counters.close(),
          discovery.close(),
        ]);
        await Promise.all([upstream.close(), demo?.close()]);
        // A folder that turned read-only keeps these files; the next start takes the stale lock over.
        await rm(path.join(baseDir, 'daemon.json'), { force: true }).catch(() => undefined);
        await lock.release();
      })();
      return stopping;
    },
  };
}
