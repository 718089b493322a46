/**
 * The chaos upstream's calls in progress, for the soak's clock (`soak-clock.ts`): which of them wait, asleep on
 * the clock or held open until the router lets go.
 */
import type http from 'node:http';

/**
 * The upstream's calls in progress, and those of them that wait: asleep on the soak's clock or held open
 * until the router lets go. Only when every call waits can the soak's clock move without outrunning one.
 */
export class CallBook {
  /** Each call in progress (from its request's head until its response is done or cut): does it wait? */
  readonly #open = new Map<http.ServerResponse, { requestId: string; waits: number }>();

  /** Counts the call answered by `res` as in progress until its response is done or cut. */
  track(res: http.ServerResponse, requestId: string): void {
    this.#open.set(res, { requestId, waits: 0 });
    res.once('close', () => void this.#open.delete(res));
  }

  /** Counts the call answered by `res` as waiting until `wait` settles. */
  async wait<T>(res: http.ServerResponse, wait: Promise<T>): Promise<T> {
    const call = this.#open.get(res);
    if (call) call.waits += 1;
    try {
      return await wait;
    } finally {
      if (call) call.waits -= 1;
    }
  }

  /** Every call in progress waits, and each of `requestIds` has one in progress. */
  allWaiting(requestIds: Iterable<string>): boolean {
    const waiting = new Set<string>();
    for (const call of this.#open.values()) {
      if (call.waits === 0) return false;
      waiting.add(call.requestId);
    }
    for (const id of requestIds) if (!waiting.has(id)) return false;
    return true;
  }
}
