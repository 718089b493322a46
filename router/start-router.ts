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
import { writeDaemonFile } from './daemon-file.js';
import type { RouterHandle, RouterLogger, StartRouterOptions } from './public-types.js';
import { createRouterServer } from './server/http-server.js';
import { BreakerStore } from './state/breaker-store.js';
import { systemClock } from './state/clock.js';
import { ModelStatsBook } from './state/model-stats.js';
import { QuotaBook } from './state/quota-book.js';
import { RequestHistory } from './state/request-history.js';
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
 * Starts a router in this process: loads (and validates) the config, restores breakers, pauses and
 * history from the state dir, and listens. The CLI daemon and the desktop app both run exactly this.
 */
export async function startRouter(options: StartRouterOptions = {}): Promise<RouterHandle> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const debounceMs = options.persistDebounceMs ?? 2000;
  const host = options.host ?? '127.0.0.1';
  const baseDir = resolveStateDir({
    stateDir: options.stateDir,
    env,
    platform: process.platform,
    homedir: os.homedir(),
  });
  const demo = options.demo ? await prepareDemo(baseDir, options.configPath) : null;
  const stateDir = demo?.stateDir ?? baseDir;
  const configPath = demo?.configPath ?? options.configPath ?? path.join(stateDir, 'config.json');
  await mkdir(stateDir, { recursive: true, mode: 0o700 });

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
  const live = new LiveConfig({
    path: configPath,
    raw: loaded.raw,
    config: loaded.config,
    env,
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
  await Promise.all([breakers.load(), quotas.load(), history.load()]);

  const upstream = new UpstreamClient();
  engine = new RouterEngine({
    resolved: live.resolved,
    breakers,
    quotas,
    history,
    modelStats: new ModelStatsBook(),
    upstream,
    events,
    clock,
    logger,
  });
  const version = packageVersion();
  const startedAt = clock();
  const token = randomBytes(24).toString('base64url');
  const { server, events: eventsRoute } = createRouterServer({
    engine,
    live,
    history,
    quotas,
    events,
    rendererDir: options.rendererDir ?? path.join(packageRoot(), 'dist', 'renderer'),
    token,
    version,
    startedAt,
    clock,
    logger,
  });

  const port = choosePort(options.port, env);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
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
  await writeDaemonFile(baseDir, {
    pid: process.pid,
    port: actualPort,
    host,
    url,
    version,
    startedAt,
    demo: Boolean(demo),
  });
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
    history: (limit) => ({ entries: history.list(limit), stats: history.stats() }),
    on: (type, listener) => events.on(type, listener),
    setPaused: (paused) => liveEngine.setPaused(paused),
    isPaused: () => liveEngine.isPaused(),
    stop: (stopOptions = {}) => {
      stopping ??= (async () => {
        traffic?.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        eventsRoute.closeAll();
        await liveEngine.waitIdle(stopOptions.graceMs ?? 10_000);
        server.closeAllConnections();
        await closed;
        await Promise.all([breakers.close(), quotas.close(), history.close()]);
        await Promise.all([upstream.close(), demo?.close()]);
        await rm(path.join(baseDir, 'daemon.json'), { force: true });
      })();
      return stopping;
    },
  };
}
