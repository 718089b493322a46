/** The handle of a running router: what its owner (the CLI daemon, the desktop app) reads and asks of it. */
import type { Server } from 'node:http';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigWatch } from '../config/config-watch.js';
import type { DaemonLock } from './daemon-lock.js';
import type { DiscoverySchedule } from '../engine/watch/discovery-schedule.js';
import type { EventBus } from '../engine/event-bus.js';
import { ProbeRefusedError } from '../engine/watch/probe-refusal.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { RouterHandle, RouterLogger } from '../public-types.js';
import type { RouterServer } from '../server/http-server.js';
import { settleAll, type StateStores } from './state-stores.js';
import type { DiscoveryBook } from '../state/discovery-book.js';
import { historyResponse } from '../state/request-history.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { proxyLine, systemOutboundProxy } from '../upstream/outbound-proxy.js';

/** What a running router is made of, for its handle. */
export interface RunningParts {
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
  /** The environment the router started with: its NO_PROXY holds for the system's proxy too. */
  env: Record<string, string | undefined>;
  logger: RouterLogger;
}

/** Sends later calls to providers through the system's proxy `url` (see `RouterHandle.setSystemProxy`). */
function setSystemProxy(parts: RunningParts, url: string | null): void {
  const proxy = systemOutboundProxy(parts.env, url);
  if (!parts.upstream.setProxy(proxy)) return;
  parts.logger.info(
    `the system's proxy changed: ${proxy === null ? 'calls to providers go directly' : proxyLine(proxy)}`,
  );
}

/**
 * How long requests cut at the end of the grace get to answer their clients and be booked before the
 * connections are closed, and again after (a request whose client stopped reading ends with its socket).
 */
const CUT_BOOKING_MS = 1000;

/**
 * Stops a running router: stops listening, lets in-flight requests finish (up to the grace), ends those
 * still running as its own stop (no model blamed) and books them, writes every state file, and frees the
 * state folder. Rejects, once stopped, when a state file could not be saved.
 */
async function stopRouter(parts: RunningParts, graceMs: number): Promise<void> {
  const { engine, stores, server, eventsRoute } = parts;
  await parts.lock.stopping();
  parts.configWatch.close();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  eventsRoute.closeAll();
  await Promise.all([engine.probes.stop(), parts.discoveries.stop()]);
  await engine.waitIdle(graceMs);
  // Ended by the router, not by closing their sockets: each is answered, booked and blames no model.
  engine.cutInFlight();
  await engine.waitIdle(CUT_BOOKING_MS);
  server.closeAllConnections();
  await closed;
  await engine.waitIdle(CUT_BOOKING_MS);
  const saved = settleAll([stores.close(), parts.discovery.close()]);
  await saved.catch(() => undefined);
  await Promise.all([parts.upstream.close(), parts.closeDemo()]);
  // A folder that turned read-only keeps these files; the next start takes the stale lock over.
  await rm(path.join(parts.baseDir, 'daemon.json'), { force: true }).catch(() => undefined);
  await parts.lock.release();
  // Stopped either way; a state file that could not be saved makes the stop fail (exit 1 in the CLI).
  await saved;
}

/** The handle of a running router; calling `stop` again returns the same stop. */
export function routerHandle(parts: RunningParts): RouterHandle {
  const { engine, stores } = parts;
  let stopping: Promise<void> | null = null;
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
    probeNow: async (model) => {
      const refusal = engine.probeRefusal(model);
      if (refusal !== null) throw new ProbeRefusedError(refusal);
      return engine.probes.probe(model);
    },
    runDueProbes: async () => (await engine.probes.pass()).map((probe) => probe.key),
    runDueDiscoveries: () => parts.discoveries.pass(),
    setSystemProxy: (url) => setSystemProxy(parts, url),
    stop: (stopOptions = {}) => (stopping ??= stopRouter(parts, stopOptions.graceMs ?? 10_000)),
  };
}
