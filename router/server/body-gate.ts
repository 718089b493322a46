import type { IncomingMessage } from 'node:http';

/** A request with a body to come (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Counts the requests whose bodies are still arriving. A slow sender holds a socket and buffers until its
 * body is in; past the cap, new senders are turned away rather than let pile up.
 */
export class PendingBodies {
  #count = 0;

  /** @param max read on every request, so a config change applies at once */
  constructor(private readonly max: () => number) {}

  get count(): number {
    return this.#count;
  }

  /**
   * Counts `req` until its body has arrived (or the request is gone). False, counting nothing, when the
   * cap is reached; a request without a body is always admitted and never counted.
   */
  admit(req: IncomingMessage): boolean {
    if (!hasBody(req)) return true;
    if (this.#count >= this.max()) return false;
    this.#count += 1;
    const socket = req.socket;
    const arrived = (): void => {
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
