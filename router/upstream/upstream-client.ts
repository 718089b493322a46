import type { Dispatcher } from 'undici';
import type { Time } from '../state/clock.js';
import { fetchModelIds, type ModelsListResult, type ModelsListTarget } from './models-list.js';
import { outboundDispatcher, type OutboundProxy } from './outbound-proxy.js';
import { UpstreamExchange, type ExchangeHandler } from './upstream-exchange.js';

/** One upstream call. */
export interface UpstreamCall {
  providerId: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A URL split the way undici's dispatch wants it. */
interface Target {
  origin: string;
  path: string;
}

/**
 * Upstream HTTP through undici's dispatch API: one keep-alive pool per provider, so a slow or broken provider
 * cannot starve the sockets of the others, through the environment's proxy when it names one. Timeouts are
 * the caller's (it aborts the exchange), so undici's own are off.
 */
export class UpstreamClient {
  readonly #agents = new Map<string, Dispatcher>();
  readonly #targets = new Map<string, Target>();

  /** `proxy`: where calls go when the environment names a proxy (`readOutboundProxy`); null goes directly. */
  constructor(private readonly proxy: OutboundProxy | null = null) {}

  #agent(providerId: string): Dispatcher {
    let agent = this.#agents.get(providerId);
    if (!agent) {
      agent = outboundDispatcher(this.proxy, { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
      this.#agents.set(providerId, agent);
    }
    return agent;
  }

  /** Provider URLs are few and fixed: parse each once. */
  #target(url: string): Target {
    let target = this.#targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      if (this.#targets.size > 1000) this.#targets.clear();
      this.#targets.set(url, target);
    }
    return target;
  }

  /**
   * Starts one request whose answer goes to `handler`. Network errors and aborts reach its `onError`; an
   * abort holds even while the request is still queued for a socket.
   */
  open(call: UpstreamCall, handler: ExchangeHandler): UpstreamExchange {
    const exchange = new UpstreamExchange(handler);
    const { origin, path } = this.#target(call.url);
    this.#agent(call.providerId).dispatch(
      {
        origin,
        path,
        method: 'POST',
        headers: call.headers,
        body: call.body,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      exchange,
    );
    return exchange;
  }

  /** Fetches the model list of `providerId` at `target`, over the provider's own pool. */
  listModels(providerId: string, target: ModelsListTarget, time: Time): Promise<ModelsListResult> {
    return fetchModelIds(target, time, this.#agent(providerId));
  }

  /** Closes every pool (in-flight requests are destroyed). */
  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((agent) => agent.destroy().catch(() => undefined)));
  }
}
