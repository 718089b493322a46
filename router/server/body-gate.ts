import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Time } from '../state/clock.js';
import { DeadlineWatch } from '../upstream/deadline-watch.js';

/** A request with a body to come (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The limits on bodies still arriving (`router.server`), read on every request. */
export interface BodyLimits {
  maxPendingBodies: number;
  requestBodyTimeoutMs: number;
}

/**
 * Counts the requests whose bodies are still arriving, and gives each a deadline. A slow sender holds a
 * socket and buffers until its body is in; past the cap, new senders are turned away rather than let pile
 * up, and a body not in by `requestBodyTimeoutMs` (on the router's time, from the request's head) is cut.
 */
export class PendingBodies {
  #count = 0;
  /** Every pending body's deadline on one timer, as the attempts' are. */
  readonly #deadlines: DeadlineWatch;

  /**
   * @param limits read on every request, so a config change applies at once
   * @param onLate what is done with a request whose body is still arriving at its deadline
   */
  constructor(
    private readonly limits: () => BodyLimits,
    time: Time,
    private readonly onLate: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    this.#deadlines = new DeadlineWatch(time);
  }

  get count(): number {
    return this.#count;
  }

  /**
   * Counts `req` until its body has arrived (or the request is gone), and cuts it if it is still arriving
   * at the deadline. False, counting nothing, when the cap is reached; a request without a body is always
   * admitted and never counted.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (!hasBody(req)) return true;
    const { maxPendingBodies, requestBodyTimeoutMs } = this.limits();
    if (this.#count >= maxPendingBodies) return false;
    this.#count += 1;
    const socket = req.socket;
    const dueAt = this.#deadlines.now() + requestBodyTimeoutMs;
    const deadline = this.#deadlines.watch({ dueAt, onDue: () => this.onLate(req, res) });
    const arrived = (): void => {
      this.#deadlines.unwatch(deadline);
      req.off('end', arrived);
      req.off('close', arrived);
      socket.off('close', arrived);
      this.#count -= 1;
    };
    req.once('end', arrived);
    req.once('close', arrived);
    // Answered before its body was in, a request is detached from its socket: neither 'end' nor 'close'
    // comes when the client hangs up then, only the socket's own 'close'.
    socket.once('close', arrived);
    return true;
  }
}
