import type { RouterEvent } from '../../../router/api-types.js';
import { signedEventsUrl } from '../api/token.js';
import { reconnectDelayMs } from './backoff.js';
import { EVENT_TYPES, parseRouterEvent } from './parse-event.js';

/**
 * `downSince`: when the router was last heard from before the stream broke; kept through every retry and
 * reconnect until the stream opens again (absent on the first connect).
 */
export type ConnectionStatus =
  | { state: 'connecting'; downSince?: number }
  | { state: 'open'; since: number }
  | { state: 'retrying'; attempt: number; retryAt: number; downSince: number };

/** The part of `EventSource` used here, so tests can hand in a fake. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface EventStreamOptions {
  url: string;
  onEvent(event: RouterEvent): void;
  onStatus(status: ConnectionStatus): void;
  /** Called on every (re)connect after the first: events may have been missed, so cached data is stale. */
  onResync(): void;
  createSource?: (url: string) => EventSourceLike;
  now?: () => number;
}

/**
 * Keeps one EventSource open to the router's event stream. The browser's own retry is replaced by an
 * explicit backoff: on an error the source is closed and reopened after 1, 2, 4 … 30 s, and the status
 * says when, so the dashboard can show "disconnected — retrying". Returns the function that stops it.
 */
export function openEventStream(options: EventStreamOptions): () => void {
  // Signed at each connect: the token may have been refreshed since the last one.
  const createSource = options.createSource ?? ((url: string) => new EventSource(signedEventsUrl(url)));
  const now = options.now ?? Date.now;
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let everOpened = false;
  let stopped = false;
  let downSince: number | null = null;

  const connect = (): void => {
    timer = null;
    options.onStatus(downSince === null ? { state: 'connecting' } : { state: 'connecting', downSince });
    const current = createSource(options.url);
    source = current;
    current.onopen = () => {
      if (current !== source) return;
      failures = 0;
      downSince = null;
      options.onStatus({ state: 'open', since: now() });
      if (everOpened) options.onResync();
      everOpened = true;
    };
    current.onerror = () => {
      if (current !== source || stopped) return;
      current.close();
      source = null;
      failures += 1;
      downSince ??= now();
      const delay = reconnectDelayMs(failures);
      options.onStatus({ state: 'retrying', attempt: failures, retryAt: now() + delay, downSince });
      timer = setTimeout(connect, delay);
    };
    for (const type of EVENT_TYPES) {
      current.addEventListener(type, (message) => {
        const event = parseRouterEvent(type, message.data);
        if (event) options.onEvent(event);
      });
    }
  };

  connect();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    source?.close();
    source = null;
  };
}
