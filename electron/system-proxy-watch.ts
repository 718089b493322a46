/**
 * Follows the system's proxy for the app's own router as the laptop moves between networks (the office's
 * proxy, home's direct line): it resolves the proxy again now and then and on waking, and tells the router
 * only when the answer changed. Electron-free: main passes Chromium's resolver and `powerMonitor`.
 */
import type { RouterLogger, Time, TimerHandle } from '../router/index.js';
import { resolveSystemProxy, type ResolveProxy } from './system-proxy.js';

/**
 * How often the proxy is resolved again. The OS tells no one when its proxy or PAC answer changes; a network
 * change without sleep (a cable, a VPN) is caught within this, and one PAC evaluation every 5 minutes costs
 * nothing.
 */
export const PROXY_RECHECK_MS = 5 * 60_000;

/** The `powerMonitor` events after which the machine may be on another network. */
export const WAKE_EVENTS = ['resume', 'unlock-screen'] as const;

/** Electron's `powerMonitor`, as far as waking goes. */
export interface WakeEvents {
  on(event: (typeof WAKE_EVENTS)[number], listener: () => void): unknown;
  removeListener(event: (typeof WAKE_EVENTS)[number], listener: () => void): unknown;
}

/**
 * What to tell a router going through `current` (null: directly) once the system answered `resolved`
 * (undefined: the resolver failed): the new proxy, or null for nothing to tell (the same, or no answer).
 */
export function proxyToTell(
  current: string | null,
  resolved: string | null | undefined,
): { proxy: string | null } | null {
  return resolved === undefined || resolved === current ? null : { proxy: resolved };
}

export interface SystemProxyWatchOptions {
  /** Chromium's resolver. */
  resolveProxy: ResolveProxy;
  /** The system's proxy the router goes through now; null for directly. */
  current: string | null;
  /** Tells the router to go through `proxy` (null: directly); a throw leaves it where it was. */
  apply(proxy: string | null): void;
  time: Time;
  wakes: WakeEvents;
  logger: RouterLogger;
}

/** Resolves the system's proxy every {@link PROXY_RECHECK_MS} and on each wake, until stopped. */
export class SystemProxyWatch {
  readonly #options: SystemProxyWatchOptions;
  #current: string | null;
  #timer: TimerHandle | null;
  #checking: Promise<void> | null = null;
  #stopped = false;
  readonly #onWake = (): void => void this.check();

  constructor(options: SystemProxyWatchOptions) {
    this.#options = options;
    this.#current = options.current;
    this.#timer = options.time.setInterval(() => void this.check(), PROXY_RECHECK_MS);
    for (const event of WAKE_EVENTS) options.wakes.on(event, this.#onWake);
  }

  /** Resolves the proxy now and tells the router when it changed; a check under way is not doubled. */
  check(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#checking ??= this.#check().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  /** Stops watching: no timer, no listener, and a check under way tells nothing. */
  stop(): void {
    this.#stopped = true;
    this.#options.time.clearInterval(this.#timer);
    this.#timer = null;
    for (const event of WAKE_EVENTS) this.#options.wakes.removeListener(event, this.#onWake);
  }

  async #check(): Promise<void> {
    const resolved = await resolveSystemProxy(this.#options.resolveProxy);
    const tell = proxyToTell(this.#current, resolved);
    if (tell === null || this.#stopped) return;
    try {
      this.#options.apply(tell.proxy);
      this.#current = tell.proxy;
    } catch (error) {
      // The router's message names what is wrong without echoing the URL (it may hold a password).
      this.#options.logger.warn(
        `the system's proxy could not be followed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
