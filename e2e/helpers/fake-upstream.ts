import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake provider does with one chat request. */
export type Behaviour =
  | 'ok'
  | 'empty-200'
  | 'error-500'
  /** A 400 of a parameter the provider does not take, as strict upstreams answer. */
  | 'refuse-400'
  /** A whole answer (a stream's request too) calling the request's first tool, with no words. */
  | 'tool-call'
  | 'unauthorized'
  | { rateLimitSeconds: number }
  /** A good answer after `delayMs` more. */
  | { delayMs: number }
  /** A good answer once `heldUntil` settles: a gate the test opens, for an order that must not hang on time. */
  | { heldUntil: Promise<void> };

/** The behaviours that answer `ok`, later. */
type Later = Extract<Behaviour, { delayMs: number } | { heldUntil: Promise<void> }>;
const isLater = (behaviour: Behaviour): behaviour is Later =>
  typeof behaviour === 'object' && ('delayMs' in behaviour || 'heldUntil' in behaviour);

/**
 * A scripted OpenAI-compatible upstream on a real port: each model answers from its queue of behaviours,
 * then with its default. The router under test talks to it over real HTTP, as it would to a provider.
 */
export class FakeUpstream {
  private readonly queues = new Map<string, Behaviour[]>();
  private readonly defaults = new Map<string, Behaviour>();
  private readonly server: http.Server;
  /** Requests seen per model id. */
  readonly calls = new Map<string, number>();
  /** Who waits for a model's nth request (`seen`). */
  private readonly watchers: { model: string; count: number; resolve: () => void }[] = [];
  /** The bearer key of each chat request, in order (test keys only: this is a fake provider). */
  readonly keysUsed: string[] = [];
  /** Keys this provider rate limits (429 with this Retry-After, in seconds), whatever the model. */
  private readonly limitedKeys = new Map<string, number>();
  /** Keys this provider refuses (401), whatever the model. */
  private readonly refusedKeys = new Set<string>();
  port = 0;

  constructor(private readonly latencyMs = 25) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  /** Starts listening on a free loopback port. */
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The base URL a provider config points at. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Queues behaviours for the next requests to `model`. */
  script(model: string, ...behaviours: Behaviour[]): void {
    this.queues.set(model, [...(this.queues.get(model) ?? []), ...behaviours]);
  }

  /** Resolves once `model` has had `count` requests in all (at once when it has). */
  seen(model: string, count: number): Promise<void> {
    if ((this.calls.get(model) ?? 0) >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ model, count, resolve }));
  }

  /** The model ids `GET /v1/models` lists (model discovery); null answers 404. */
  listed: readonly string[] | null = null;

  /** Answers every chat request made with `apiKey` with 429 and `Retry-After: seconds`. */
  rateLimitKey(apiKey: string, seconds: number): void {
    this.limitedKeys.set(apiKey, seconds);
  }

  /** Answers every chat request made with `apiKey` with 401, as a provider answers a wrong key. */
  refuseKey(apiKey: string): void {
    this.refusedKeys.add(apiKey);
  }

  /** What `model` does once its queue is empty. @default 'ok' */
  setDefault(model: string, behaviour: Behaviour): void {
    this.defaults.set(model, behaviour);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'GET' && req.url?.endsWith('/models') && this.listed !== null) {
      const data = this.listed.map((id) => ({ id, object: 'model' }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data }));
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body: { model?: unknown; stream?: unknown; tools?: unknown } = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      // An unparsable body is answered like any other request; the router never sends one.
    }
    const model = typeof body.model === 'string' ? body.model : '';
    const seen = (this.calls.get(model) ?? 0) + 1;
    this.calls.set(model, seen);
    for (const watcher of this.watchers.filter((w) => w.model === model && w.count <= seen)) {
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    this.keysUsed.push(key);
    const limited = this.limitedKeys.get(key);
    const behaviour: Behaviour = this.refusedKeys.has(key)
      ? 'unauthorized'
      : limited !== undefined
        ? { rateLimitSeconds: limited }
        : (this.queues.get(model)?.shift() ?? this.defaults.get(model) ?? 'ok');
    const extra = typeof behaviour === 'object' && 'delayMs' in behaviour ? behaviour.delayMs : 0;
    if (typeof behaviour === 'object' && 'heldUntil' in behaviour) await behaviour.heldUntil;
    await new Promise((resolve) =>
      setTimeout(resolve, extra + this.latencyMs + Math.random() * this.latencyMs),
    );
    if (behaviour === 'tool-call') {
      callFirstTool(res, model, body.tools);
      return;
    }
    respond(res, model, isLater(behaviour) ? 'ok' : behaviour, body.stream === true);
  }
}

function json(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

/** A whole answer calling the first of `tools` (chat's shape), with `{}` for its arguments. */
function callFirstTool(res: http.ServerResponse, model: string, tools: unknown): void {
  const first: unknown = Array.isArray(tools) ? tools[0] : undefined;
  const name = (first as { function?: { name?: unknown } } | undefined)?.function?.name;
  const call = { id: 'call_e2e_1', type: 'function', function: { name: String(name), arguments: '{}' } };
  json(res, 200, {
    id: 'chatcmpl-e2e-call',
    object: 'chat.completion',
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: null, tool_calls: [call] },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
  });
}

function respond(
  res: http.ServerResponse,
  model: string,
  behaviour: Exclude<Behaviour, Later | 'tool-call'>,
  stream: boolean,
): void {
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  if (behaviour === 'ok' && stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const frame = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.end(`${frame({ role: 'assistant', content: 'ok' }, null)}${frame({}, 'stop')}data: [DONE]\n\n`);
    return;
  }
  if (behaviour === 'ok') {
    json(res, 200, {
      id,
      object: 'chat.completion',
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
    });
  } else if (behaviour === 'empty-200') {
    json(res, 200, { id, object: 'chat.completion', model, choices: [] });
  } else if (behaviour === 'error-500') {
    json(res, 500, { error: { message: 'internal error', type: 'server_error' } });
  } else if (behaviour === 'refuse-400') {
    json(res, 400, { error: { message: "Unsupported parameter: 'n'", type: 'invalid_request_error' } });
  } else if (behaviour === 'unauthorized') {
    json(res, 401, { error: { message: 'invalid api key', type: 'authentication_error' } });
  } else {
    json(
      res,
      429,
      { error: { message: 'rate limited' } },
      { 'retry-after': String(behaviour.rateLimitSeconds) },
    );
  }
}
