/**
 * Where the desktop app finds its router: the daemon already running on its state folder, else its own in
 * this process on the port (or the compatible daemon serving it). Electron-free: main passes the folder,
 * the version and the paths Electron knows.
 */
import {
  readDaemonFile,
  startRouter,
  systemTime,
  type RouterHandle,
  type RouterLogger,
  type Time,
} from '../router/index.js';
import { connectRouter, type ConnectResult } from './router-connect.js';
import { ownedSource, type RouterSource } from './router-source.js';
import { findStateDirDaemon } from './state-dir-daemon.js';
import { envWithSystemProxy, namesProxy, type ResolveProxy } from './system-proxy.js';
import { SystemProxyWatch, type WakeEvents } from './system-proxy-watch.js';

/** What the desktop app's router runs on. */
export interface DesktopRouterPlace {
  host: string;
  /** The app's version: a daemon of another version on the folder is not attached to. */
  version: string;
  /** The app's folder (Electron's `userData`), the router's state folder too. */
  stateDir: string;
  /** The built dashboard the app's own router serves. */
  rendererDir: string;
  /** `--demo`: the router runs over the built-in simulated providers. */
  demo: boolean;
  env: Record<string, string | undefined>;
  /** The system's proxy resolver (Chromium's): the own router's proxy when `env` names none. */
  resolveProxy: ResolveProxy;
  /** Electron's `powerMonitor`: on waking the own router's system proxy is resolved again. */
  wakes: WakeEvents;
  logger: RouterLogger;
  /** The own router's time. @default the system's */
  time?: Time;
}

/** Connects the desktop app to its router on a port (see {@link DesktopRouterPlace}). */
export function desktopConnector(place: DesktopRouterPlace): (port: number) => Promise<ConnectResult> {
  const { host, version, stateDir } = place;
  return (port) =>
    connectRouter({
      host,
      port,
      ownVersion: version,
      findExisting: () => findStateDirDaemon({ stateDir, ownPid: process.pid, ownVersion: version }),
      ownDaemonPid: async () => (await readDaemonFile(stateDir).catch(() => null))?.pid ?? null,
      startOwned: async (ownPort) => {
        const env = await envWithSystemProxy(place.env, place.resolveProxy);
        const handle = await startRouter({
          port: ownPort,
          host,
          stateDir,
          rendererDir: place.rendererDir,
          demo: place.demo,
          env,
          logger: place.logger,
          ...(place.time ? { time: place.time } : {}),
        });
        return followingSystemProxy(ownedSource(handle), handle, place, env);
      },
    });
}

/**
 * The own router's source, its system proxy followed until it is closed; as it is when the environment
 * names a proxy (the user's proxy wins).
 */
function followingSystemProxy(
  source: RouterSource,
  handle: RouterHandle,
  place: DesktopRouterPlace,
  env: Record<string, string | undefined>,
): RouterSource {
  if (namesProxy(place.env)) return source;
  const watch = new SystemProxyWatch({
    resolveProxy: place.resolveProxy,
    // `place.env` names no proxy, so an HTTPS_PROXY here is the system's the router started with.
    current: env.HTTPS_PROXY || null,
    apply: (proxy) => handle.setSystemProxy(proxy),
    time: place.time ?? systemTime,
    wakes: place.wakes,
    logger: place.logger,
  });
  return {
    ...source,
    close: (options) => {
      watch.stop();
      return source.close(options);
    },
  };
}
