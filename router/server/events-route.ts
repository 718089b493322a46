import type { ServerResponse } from 'node:http';
import type { RouterEventType } from '../api-types.js';
import type { EventBus } from '../engine/event-bus.js';
import type { Time } from '../state/clock.js';

const EVENT_TYPES: readonly RouterEventType[] = ['request', 'breaker', 'config', 'router', 'config-file'];
const HEARTBEAT_MS = 15_000;
/** A dashboard that stops reading is dropped rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** At most this many streams; a newcomer past it ends the oldest (an EventSource comes back by itself). */
export const MAX_CLIENTS = 64;

/** Serves `GET /api/events` (SSE) and closes every stream on shutdown. */
export class EventsRoute {
  readonly #clients = new Set<ServerResponse>();

  constructor(
    private readonly bus: EventBus,
    private readonly time: Time,
  ) {}

  get clientCount(): number {
    return this.#clients.size;
  }

  handle(res: ServerResponse): void {
    // Streams left open by whoever opened the most would otherwise shut the dashboard out.
    if (this.#clients.size >= MAX_CLIENTS) this.#endOldest();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write(': fcm-router events\nretry: 2000\n\n');
    this.#clients.add(res);
    const send = (type: RouterEventType, data: unknown): void => {
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        res.destroy();
        return;
      }
      res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const unsubscribe = EVENT_TYPES.map((type) => this.bus.on(type, (event) => send(type, event)));
    const heartbeat = this.time.setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    res.on('close', () => {
      this.time.clearInterval(heartbeat);
      unsubscribe.forEach((off) => off());
      this.#clients.delete(res);
    });
  }

  #endOldest(): void {
    for (const oldest of this.#clients) {
      this.#clients.delete(oldest);
      oldest.end();
      return;
    }
  }

  /** Ends every open event stream (so shutdown is not held up by dashboards). */
  closeAll(): void {
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }
}
