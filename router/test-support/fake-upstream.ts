/**
 * A scripted fake provider for integration tests: a real node:http server on port 0 that serves any number
 * of providers under path prefixes (`<url>/<provider>/chat/completions`). Each model key
 * (`provider/modelId`, the same key the router's config uses) has a queue of behaviours, then an optional
 * fallback; every call is recorded with its headers, body and when its socket closed.
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { deferred, within, type Deferred } from './deferred.js';
import { status, type Behaviour, type UpstreamCall } from './upstream-behaviours.js';

interface Script {
  queue: Behaviour[];
  fallback: Behaviour | null;
}

/** A listed model with fields beside its id (`context_length`, say). */
export type ListedModel = { id: string } & Record<string, unknown>;

/** The fake upstream server. */
export class FakeUpstream {
  readonly calls: UpstreamCall[] = [];
  readonly #scripts = new Map<string, Script>();
  readonly #waiters: { test: (call: UpstreamCall) => boolean; done: Deferred<UpstreamCall> }[] = [];
  readonly #sockets = new Set<Socket>();
  /** Provider → the model ids `GET <provider>/models` lists, with the key each call carried. */
  readonly #lists = new Map<
    string,
    { ids: readonly (string | ListedModel)[]; extra: Record<string, unknown> }
  >();
  readonly listCalls: { provider: string; authorization: string | undefined }[] = [];
  #server: http.Server | null = null;
  #url = '';

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return this.#url;
  }

  /** The base URL to configure for a provider id. */
  baseUrl(provider: string): string {
    return `${this.#url}/${provider}`;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      // A router that aborts mid-upload breaks the body read; that call simply ends.
      this.#handle(req, res).catch(() => res.destroy());
    });
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Queues behaviours for a model key; each call takes the next one. */
  script(key: string, ...behaviours: Behaviour[]): this {
    this.#entry(key).queue.push(...behaviours);
    return this;
  }

  /**
   * What `GET <url>/<provider>/models` lists (OpenAI shape, with `extra` fields beside `data`); a provider
   * without a list answers 404.
   */
  listModels(
    provider: string,
    ids: readonly (string | ListedModel)[],
    extra: Record<string, unknown> = {},
  ): this {
    this.#lists.set(provider, { ids, extra });
    return this;
  }

  /** What a model key does once its queue is empty. */
  always(key: string, behaviour: Behaviour): this {
    this.#entry(key).fallback = behaviour;
    return this;
  }

  /** Calls that reached one model key. */
  callsTo(key: string): UpstreamCall[] {
    return this.calls.filter((call) => call.key === key);
  }

  /** Resolves with the `count`-th call (1-based, counting calls already made) to `key`, or any key. */
  nextCall(key?: string, count?: number): Promise<UpstreamCall> {
    const matches = (call: UpstreamCall): boolean => key === undefined || call.key === key;
    const wanted = count ?? this.calls.filter(matches).length + 1;
    const seen = this.calls.filter(matches);
    const already = seen[wanted - 1];
    if (already) return Promise.resolve(already);
    let counted = seen.length;
    const done = deferred<UpstreamCall>();
    this.#waiters.push({
      test: (call) => matches(call) && ++counted === wanted,
      done,
    });
    return within(done.promise, `call ${wanted} to ${key ?? 'any model'}`);
  }

  /** Stops listening and drops every open connection. */
  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #entry(key: string): Script {
    let entry = this.#scripts.get(key);
    if (!entry) {
      entry = { queue: [], fallback: null };
      this.#scripts.set(key, entry);
    }
    return entry;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const listed = /^\/([^/]+)\/models$/.exec(new URL(req.url ?? '/', 'http://fake').pathname);
    if (req.method === 'GET' && listed) {
      const provider = listed[1] ?? '';
      this.listCalls.push({ provider, authorization: req.headers.authorization });
      const list = this.#lists.get(provider);
      res.writeHead(list ? 200 : 404, { 'content-type': 'application/json' });
      const data = list?.ids.map((id) =>
        typeof id === 'string' ? { id, object: 'model' } : { object: 'model', ...id },
      );
      res.end(JSON.stringify(list ? { object: 'list', data, ...list.extra } : {}));
      return;
    }
    const parts: Buffer[] = [];
    for await (const part of req as AsyncIterable<Buffer>) parts.push(part);
    const rawBody = Buffer.concat(parts).toString('utf8');
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(rawBody);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        body = parsed as Record<string, unknown>;
    } catch {
      body = null;
    }
    const pathname = new URL(req.url ?? '/', 'http://fake').pathname;
    const provider = pathname.split('/')[1] ?? '';
    const closed = deferred<void>();
    const call: UpstreamCall = {
      key: `${provider}/${typeof body?.model === 'string' ? body.model : '?'}`,
      provider,
      path: pathname,
      headers: req.headers,
      rawBody,
      body,
      closed: closed.promise,
      closedEarly: false,
    };
    res.on('close', () => {
      if (!res.writableFinished) call.closedEarly = true;
      closed.resolve();
    });
    this.calls.push(call);
    for (const waiter of [...this.#waiters]) {
      if (waiter.test(call)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.done.resolve(call);
      }
    }
    const script = this.#scripts.get(call.key);
    const behaviour =
      script?.queue.shift() ??
      script?.fallback ??
      status(500, { body: { error: { message: `unscripted ${call.key}` } } });
    await behaviour(res, call);
  }
}

/** Starts a fake upstream. */
export function startFakeUpstream(): Promise<FakeUpstream> {
  return new FakeUpstream().start();
}

/**
 * A loopback URL where nothing listens (connection refused): a local model server that is not running.
 * Port 1 (tcpmux), not a port bound and freed: a freed ephemeral port may be handed to the next server a
 * test starts, which would then answer.
 */
export async function deadUrl(): Promise<string> {
  return Promise.resolve('http://127.0.0.1:1');
}

/**
 * A URL off this machine that no request reaches: its name is under `.invalid`, which never resolves
 * (RFC 6761), so the lookup fails before anything is sent, as when the machine is offline.
 */
export const UNRESOLVABLE_URL = 'http://fcm-test.invalid';

/**
 * Two providers, `gone/m0` and `lost/m1`, off this machine at a name that does not resolve: every attempt
 * on them is a network error before anything is sent, as when the machine is offline.
 */
export function unreachableProviders(): Promise<{
  gone: { baseUrl: string; models: string[] };
  lost: { baseUrl: string; models: string[] };
}> {
  return Promise.resolve({
    gone: { baseUrl: `${UNRESOLVABLE_URL}/gone`, models: ['m0'] },
    lost: { baseUrl: `${UNRESOLVABLE_URL}/lost`, models: ['m1'] },
  });
}
