import { Agent, request, type Dispatcher } from 'undici';

/** One upstream call. */
export interface UpstreamCall {
  providerId: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

export interface UpstreamReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

/**
 * Upstream HTTP through undici: one keep-alive pool per provider, so a slow or broken provider cannot starve
 * the sockets of the others. Timeouts are the caller's (one AbortSignal carries the request's deadline,
 * the attempt's header timeout and the stream's idle timeout), so undici's own are off.
 */
export class UpstreamClient {
  readonly #agents = new Map<string, Agent>();

  #agent(providerId: string): Agent {
    let agent = this.#agents.get(providerId);
    if (!agent) {
      agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
      this.#agents.set(providerId, agent);
    }
    return agent;
  }

  /**
   * Sends one request; rejects on network errors and on abort. The abort is raced here because undici only
   * acts on it once a queued request has a socket: a deadline must hold even while the pool is busy.
   */
  send(call: UpstreamCall): Promise<UpstreamReply> {
    const { signal } = call;
    const pending = request(call.url, {
      method: 'POST',
      headers: call.headers,
      body: call.body,
      signal,
      dispatcher: this.#agent(call.providerId),
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        // A reply that still arrives after the abort is not wanted: free its socket.
        pending.then(
          (late) => late.body.destroy(),
          () => undefined,
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (reply) => {
          signal.removeEventListener('abort', onAbort);
          resolve({ status: reply.statusCode, headers: reply.headers, body: reply.body });
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Closes every pool (in-flight requests are destroyed). */
  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((agent) => agent.destroy().catch(() => undefined)));
  }
}
