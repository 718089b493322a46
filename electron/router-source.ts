import type { HistoryEntry, RouterEvent, StateResponse } from '../router/index.js';
import type { RouterHandle } from '../router/index.js';

/** A snapshot of the router as the tray needs it. */
export interface RouterReading {
  state: StateResponse;
  lastEntry: HistoryEntry | null;
}

/**
 * The router the desktop shell shows: its own, running in this process, or a daemon that was already
 * serving the port (the shell is then only a front-end and never stops it).
 */
export interface RouterSource {
  readonly mode: 'owned' | 'attached';
  /** `http://127.0.0.1:19280` */
  readonly url: string;
  /**
   * Where the dashboard window goes: the router's page, with `#token=` when the token is known (a daemon
   * started with `--allow-remote` answers the page's reads only with it; the page keeps it for the tab and
   * takes it out of the address).
   */
  readonly pageUrl: string;
  /** The current state, or null when the router cannot be reached. */
  read(): Promise<RouterReading | null>;
  /**
   * Calls `onChange` for every router event, and with null when the connection to the router is lost or
   * restored. Returns the unsubscribe function.
   */
  subscribe(onChange: (event: RouterEvent | null) => void): () => void;
  setPaused(paused: boolean): Promise<void>;
  /**
   * Owned: stops the router gracefully (in-flight requests get `graceMs`, then state is flushed). Attached:
   * disconnects.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

const EVENT_TYPES = ['request', 'breaker', 'config', 'router'] as const;

/** The in-process router as a source. */
export function ownedSource(handle: RouterHandle, options: { stopGraceMs?: number } = {}): RouterSource {
  return {
    mode: 'owned',
    url: handle.url,
    pageUrl: `${handle.url}/`,
    read: async () => ({ state: handle.state(), lastEntry: handle.history(1).entries[0] ?? null }),
    subscribe(onChange) {
      const offs = EVENT_TYPES.map((type) => handle.on(type, (event) => onChange(event)));
      return () => offs.forEach((off) => off());
    },
    setPaused: async (paused) => handle.setPaused(paused),
    close: (closeOptions) => handle.stop({ graceMs: closeOptions?.graceMs ?? options.stopGraceMs ?? 10_000 }),
  };
}
