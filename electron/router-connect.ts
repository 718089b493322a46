import { DEFAULT_PORT, portFromEnv, type DaemonRunningError } from '../router/index.js';
import { decideAttachOrOwn, findNextFreePort, probeHealth, type HealthProbe } from './attach-or-own.js';
import { attachedSource } from './remote-router.js';
import type { RouterSource } from './router-source.js';
import type { StateDirDaemon } from './state-dir-daemon.js';

export type ConnectResult =
  | { kind: 'connected'; source: RouterSource }
  | {
      kind: 'port-taken';
      port: number;
      nextFreePort: number | null;
      reason: string;
      /** Held by an fcm-router that is not the app's own (another user's, say). */
      otherRouter?: boolean;
    }
  /** An incompatible fcm-router already serves the app's state dir. */
  | { kind: 'state-dir-taken'; reason: string };

export interface ConnectOptions {
  host: string;
  /** 0 picks a free port: nothing to probe, the app runs its own router. */
  port: number;
  ownVersion: string;
  /** Looks for a daemon already running on the app's state dir (checked before the port). */
  findExisting?: () => Promise<StateDirDaemon>;
  /**
   * The pid the app's state dir names in its `daemon.json`: an fcm-router on the port is attached to only
   * when it is that one. @default none, so no router on the port is attached to
   */
  ownDaemonPid?: () => Promise<number | null>;
  /** Starts the in-process router on `port`. */
  startOwned(port: number): Promise<RouterSource>;
  probe?: (baseUrl: string) => Promise<HealthProbe>;
  /** Attaches to the router at `url`; `token` is its API token when its `daemon.json` was read. */
  attach?: (url: string, token: string | null) => RouterSource;
  findFreePort?: (host: string, taken: number) => Promise<number | null>;
}

/**
 * Brings up the router the desktop shell shows: the daemon already running on its state dir (one router per
 * state dir: two would write the same files), else its own when the port is free, the compatible daemon
 * of its state dir that serves the port, or a "port taken" report with the next free port to offer (an
 * fcm-router its state dir does not name, another user's say, is never fronted).
 */
export async function connectRouter(options: ConnectOptions): Promise<ConnectResult> {
  const { host, port } = options;
  const existing = (await options.findExisting?.()) ?? { kind: 'none' };
  const attach = options.attach ?? ((url, token) => attachedSource(url, { token }));
  if (existing.kind === 'attach') return { kind: 'connected', source: attach(existing.url, existing.token) };
  if (existing.kind === 'incompatible') return { kind: 'state-dir-taken', reason: existing.reason };
  if (port === 0) return { kind: 'connected', source: await options.startOwned(0) };
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const probe = options.probe ?? probeHealth;
  const findFree = options.findFreePort ?? findNextFreePort;

  for (let attempt = 0; attempt < 2; attempt++) {
    const ours = (await options.ownDaemonPid?.()) ?? null;
    const decision = decideAttachOrOwn(await probe(url), options.ownVersion, ours);
    if (decision.action === 'attach') return { kind: 'connected', source: attach(url, null) };
    if (decision.action === 'port-taken') {
      const { reason, otherRouter } = decision;
      const nextFreePort = await findFree(host, port);
      return { kind: 'port-taken', port, nextFreePort, reason, ...(otherRouter ? { otherRouter } : {}) };
    }
    try {
      return { kind: 'connected', source: await options.startOwned(port) };
    } catch (error) {
      // A daemon owns our state folder on another port: show that one (the lock's pid) rather than fail.
      const holder = isDaemonRunning(error) ? error.holder : null;
      if (holder?.url) {
        const there = decideAttachOrOwn(await probe(holder.url), options.ownVersion, holder.pid);
        if (there.action === 'attach') return { kind: 'connected', source: attach(holder.url, null) };
      }
      // Someone bound the port between the probe and our listen: look again once.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return { kind: 'port-taken', port, nextFreePort: await findFree(host, port), reason: 'the port is in use' };
}

/** Brand check (a copy of the router module loaded twice would defeat `instanceof`). */
function isDaemonRunning(error: unknown): error is DaemonRunningError {
  return error instanceof Error && (error as { code?: unknown }).code === 'FCM_DAEMON_RUNNING';
}

/**
 * The port the desktop app uses: the one picked from the tray after a clash, then `FCM_ROUTER_PORT`
 * (0 = any free port, as tests use), then the default. The variable is read as the daemon reads it.
 *
 * @throws {Error} naming `FCM_ROUTER_PORT` when it holds no port: the app would otherwise serve, and
 * point agents at, another port than the one asked for.
 */
export function desktopPort(chosen: number | null, env: Record<string, string | undefined>): number {
  return chosen ?? portFromEnv(env) ?? DEFAULT_PORT;
}
