/**
 * The HTTP side of a start: the server over the engine, the config file watched, listening (with a deep
 * backlog) and published in the lock and `daemon.json`.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ConfigWatch } from '../config/config-watch.js';
import type { LiveConfig } from '../config/live-config.js';
import { watchLiveConfig } from '../config/watch-live-config.js';
import { StateDirError, type DaemonLock } from './daemon-lock.js';
import { writeDaemonFile } from './daemon-file.js';
import type { EventBus } from '../engine/event-bus.js';
import type { RouterEngine } from '../engine/router-engine.js';
import { packageRoot, packageVersion } from './package-info.js';
import type { RouterLogger, StartRouterOptions } from '../public-types.js';
import { createRouterServer, type RouterServer } from '../server/http-server.js';
import type { StateStores } from './state-stores.js';
import type { Time } from '../state/clock.js';
import type { DiscoveryBook } from '../state/discovery-book.js';
import type { OutboundProxy } from '../upstream/outbound-proxy.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { DEFAULT_PORT } from '../config/port-setting.js';

/**
 * How many connections the kernel may hold for the router before it accepts them (it caps this at
 * net.core.somaxconn, 4096 on Linux since 5.4). Node's default, 511, is too few for a burst: Node accepts one
 * connection per event-loop turn, a turn grows long while many clients are served, and a SYN that finds the
 * queue full is dropped and retried only after 1 s, then 3 s, 7 s, 15 s.
 */
const LISTEN_BACKLOG = 4096;

/** What a start has once the lock is held. */
export interface LockedStart {
  env: Record<string, string | undefined>;
  /** The proxy the environment names for calls to providers, or null (they go directly). */
  proxy: OutboundProxy | null;
  time: Time;
  logger: RouterLogger;
  baseDir: string;
  startedAt: number;
  lock: DaemonLock;
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
 * Listens, then records where: the lock and `daemon.json` (with the per-start token) name the URL. A
 * failure closes what was opened (`onFail`); one of the folder's is a `StateDirError`.
 */
async function listenAndPublish(
  server: Server,
  started: LockedStart,
  daemon: { port: number; host: string; version: string; demo: boolean; token: string },
  onFail: () => Promise<unknown>,
): Promise<{ url: string; port: number }> {
  const { host, version, demo, token } = daemon;
  try {
    await listen(server, daemon.port, host);
  } catch (error) {
    await onFail();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    await started.lock.listening(port, url);
    const { pid } = process;
    await writeDaemonFile(started.baseDir, {
      pid,
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
    await onFail();
    throw new StateDirError(started.baseDir, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  return { url, port };
}

/** The HTTP side of a running router. */
export interface Serving {
  url: string;
  port: number;
  host: string;
  version: string;
  server: Server;
  eventsRoute: RouterServer['events'];
  configWatch: ConfigWatch;
}

/** What the server is made over: the engine and the state it runs on, and the demo's providers if any. */
export interface ServeParts {
  state: {
    events: EventBus;
    discovery: DiscoveryBook;
    live: LiveConfig;
    stores: Pick<StateStores, 'history' | 'counters' | 'quotas'>;
  };
  engine: RouterEngine;
  upstream: UpstreamClient;
  demo: { close(): Promise<void> } | null;
}

/**
 * The router's server over its engine, the config file watched for edits, listening and published in
 * `daemon.json` with a fresh per-start token. A failure to listen closes what this opened.
 */
export async function serve(
  options: StartRouterOptions,
  started: LockedStart,
  parts: ServeParts,
): Promise<Serving> {
  const { time, logger, startedAt } = started;
  const { state } = parts;
  const host = options.host ?? '127.0.0.1';
  const version = packageVersion();
  const token = randomBytes(24).toString('base64url');
  const { history, counters, quotas } = state.stores;
  const { server, events: eventsRoute } = createRouterServer({
    history,
    counters,
    quotas,
    engine: parts.engine,
    live: state.live,
    discovery: state.discovery,
    upstream: parts.upstream,
    events: state.events,
    rendererDir: options.rendererDir ?? path.join(packageRoot(), 'dist', 'renderer'),
    token,
    tokenForReads: options.allowRemote === true,
    version,
    startedAt,
    time,
    logger,
    demo: parts.demo !== null,
  });
  const configWatch = watchLiveConfig(state.live, logger, time);
  const daemon = { port: options.port ?? DEFAULT_PORT, host, version, demo: parts.demo !== null, token };
  const { url, port } = await listenAndPublish(server, started, daemon, () => {
    configWatch.close();
    return Promise.all([parts.upstream.close(), parts.demo?.close()]);
  });
  return { url, port, host, version, server, eventsRoute, configWatch };
}
