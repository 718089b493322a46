import type { Dispatcher } from 'undici';
import type { Time } from '../state/clock.js';
import { fetchModelIds, type ModelsListResult, type ModelsListTarget } from './models-list.js';
import { outboundDispatcher, sameProxy, type OutboundProxy } from './outbound-proxy.js';
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
 * cannot starve the sockets of the others, through the proxy when there is one (the environment's, or the
 * system's as its owner follows it). Timeouts are the caller's (it aborts the exchange), so undici's own are
 * off.
 */
export class UpstreamClient {
  readonly #agents = new Map<string, Dispatcher>();
  readonly #targets = new Map<string, Target>();
  /** The pools of a proxy left behind, until their last call ends. */
  readonly #closing = new Set<Dispatcher>();

  #proxy: OutboundProxy | null;

  /** `proxy`: where calls go when the environment names a proxy (`readOutboundProxy`); null goes directly. */
  constructor(proxy: OutboundProxy | null = null) {
    this.#proxy = proxy;
  }

  /** Where calls go now: the proxy, or null for directly. */
  get proxy(): OutboundProxy | null {
    return this.#proxy;
  }

  /**
   * Sends later calls through `proxy` (null: directly). The pools of the old one close gracefully: calls
   * already on them finish there. False, and nothing changes, when calls already go that way.
   */
  setProxy(proxy: OutboundProxy | null): boolean {
    if (sameProxy(proxy, this.#proxy)) return false;
    this.#proxy = proxy;
    const old = [...this.#agents.values()];
    this.#agents.clear();
    for (const agent of old) {
      this.#closing.add(agent);
      void agent
        .close()
        .catch(() => undefined)
        .finally(() => this.#closing.delete(agent));
    }
    return true;
  }

  #agent(providerId: string): Dispatcher {
    let agent = this.#agents.get(providerId);
    if (!agent) {
      agent = outboundDispatcher(this.#proxy, { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
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

  /** Closes every pool, those of a proxy left behind too (in-flight requests are destroyed). */
  async close(): Promise<void> {
    const agents = [...this.#agents.values(), ...this.#closing];
    this.#agents.clear();
    this.#closing.clear();
    await Promise.all(agents.map((agent) => agent.destroy().catch(() => undefined)));
  }
}
