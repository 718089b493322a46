import type { RouterEvent } from '../../../router/api-types.js';
import { signedEventsUrl } from '../api/token.js';
import { reconnectDelayMs } from './backoff.js';
import type { ConnectionCause } from './connection-problem.js';
import { EVENT_TYPES, parseRouterEvent } from './parse-event.js';

/**
 * `downSince`: when the router was last heard from before the stream broke; kept through every retry and
 * reconnect until the stream opens again (absent on the first connect). `cause`: why it broke, as far as
 * known (with `downSince`).
 */
export type ConnectionStatus =
  | { state: 'connecting'; downSince?: number; cause?: ConnectionCause }
  | { state: 'open'; since: number }
  | { state: 'retrying'; attempt: number; retryAt: number; downSince: number; cause: ConnectionCause };

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
  /**
   * Asked after each break why the stream failed (an EventSource cannot see its answer's status). Until
   * the first answer the dashboard has not opened the stream yet, so it says nothing but "connecting";
   * after that each break shows the last cause known at once. Without it every break is `unreachable`.
   */
  probe?: () => Promise<ConnectionCause>;
  createSource?: (url: string) => EventSourceLike;
  now?: () => number;
}

type Retrying = Extract<ConnectionStatus, { state: 'retrying' }>;

/** Why the stream broke, as far as known: the newest probe's answer, kept until the stream opens. */
class BreakCause {
  /** null: no probe has answered yet (nothing has been heard from the router at all). */
  known: ConnectionCause | null;
  private asked = 0;

  constructor(private readonly probe: (() => Promise<ConnectionCause>) | undefined) {
    this.known = probe ? null : 'unreachable';
  }

  /** Asks the probe; `found` gets the answer unless a newer question or an open stream came first. */
  ask(found: (cause: ConnectionCause) => void): void {
    if (!this.probe) return;
    const asked = ++this.asked;
    void this.probe()
      .catch((): ConnectionCause => 'unreachable')
      .then((cause) => {
        if (asked !== this.asked) return;
        this.known = cause;
        found(cause);
      });
  }

  /** The stream opened: answers still out are stale, and a later break has most likely lost the router. */
  opened(): void {
    this.asked += 1;
    this.known = 'unreachable';
  }
}

/**
 * The status to show once a probe found `cause`: the break held back for it, else the shown status with
 * that cause; null when nothing changes (the stream is open, or the cause is the one shown).
 */
function restated(
  shown: ConnectionStatus,
  held: Retrying | null,
  cause: ConnectionCause,
): ConnectionStatus | null {
  if (held) return { ...held, cause };
  if (shown.state === 'open' || shown.downSince === undefined || shown.cause === cause) return null;
  return { ...shown, cause };
}

/**
 * Keeps one EventSource open to the router's event stream. The browser's own retry is replaced by an
 * explicit backoff: on an error the source is closed and reopened after 1, 2, 4 … 30 s, and the status
 * says when and why, so the dashboard can show "disconnected — retrying". Returns the function that stops it.
 */
export function openEventStream(options: EventStreamOptions): () => void {
  // Signed at each connect: the token may have been refreshed since the last one.
  const createSource = options.createSource ?? ((url: string) => new EventSource(signedEventsUrl(url)));
  const now = options.now ?? Date.now;
  const causes = new BreakCause(options.probe);
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  let everOpened = false;
  let stopped = false;
  let downSince: number | null = null;
  let shown: ConnectionStatus = { state: 'connecting' };
  // A break before any probe answered is held back until one does: the page says only "connecting".
  let held: Retrying | null = null;
  const show = (status: ConnectionStatus): void => {
    shown = status;
    options.onStatus(status);
  };
  const onCause = (cause: ConnectionCause): void => {
    const status = stopped ? null : restated(shown, held, cause);
    held = null;
    if (status) show(status);
  };

  const connect = (): void => {
    timer = null;
    held = null;
    show(
      downSince === null
        ? { state: 'connecting' }
        : { state: 'connecting', downSince, cause: causes.known ?? 'unreachable' },
    );
    const current = createSource(options.url);
    source = current;
    current.onopen = () => {
      if (current !== source) return;
      failures = 0;
      downSince = null;
      causes.opened();
      show({ state: 'open', since: now() });
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
      const retrying: Retrying = {
        state: 'retrying',
        attempt: failures,
        retryAt: now() + delay,
        downSince,
        cause: causes.known ?? 'unreachable',
      };
      if (causes.known === null) held = retrying;
      else show(retrying);
      timer = setTimeout(connect, delay);
      causes.ask(onCause);
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
