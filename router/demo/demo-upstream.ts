/**
 * Simulated free providers for demo mode: a real HTTP server whose models fail in the ways real free
 * tiers do (empty 200s, error payloads, 429s, hangs, occasional 503s, streams cut half-way) and, for a few,
 * answer properly, so a new user sees failover and continuation happen without any key. Answers are
 * canned; the request's messages are never read back into a response (a model asked to go on with the
 * canned answer only measures how much of it the request already holds).
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

type Behaviour = 'empty' | 'error_payload' | 'rate_limited' | 'hang' | 'answer' | 'reason' | 'coin' | 'cut';

/** Each simulated provider's models and how they behave, by design. */
export const DEMO_PROVIDERS: Readonly<Record<string, Readonly<Record<string, Behaviour>>>> = {
  'demo-flaky': { 'empty-200': 'empty', 'sse-error': 'error_payload' },
  'demo-limited': { 'rate-limited': 'rate_limited' },
  'demo-slow': { hang: 'hang' },
  'demo-fast': { coder: 'answer', reasoner: 'reason' },
  'demo-sometimes': { coin: 'coin', 'cut-short': 'cut' },
};

const ANSWER = [
  'Here is a small helper:\n\n',
  '```ts\nexport function clamp(value: number, min: number, max: number): number {\n',
  '  return Math.min(max, Math.max(min, value));\n}\n```\n\n',
  'It keeps `value` within `[min, max]`; ',
  'pass `min <= max`.',
];
const ANSWER_TEXT = ANSWER.join('');
const REASONING = ['The task asks for a helper. ', 'A clamp is short, ', 'pure and easy to test.'];
const USAGE = { prompt_tokens: 64, completion_tokens: 48, total_tokens: 112 };
const MAX_BODY_BYTES = 10 * 1024 * 1024;

function apiError(message: string, type: string, code: string | number): { error: Record<string, unknown> } {
  return { error: { message: `${message} (simulated by the fcm-router demo)`, type, code } };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) return null;
    parts.push(part);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Streams deltas with 10–30 ms gaps, then a finish chunk, a usage chunk with `choices: []` and `[DONE]`;
 * `cut`: the stream closes after the deltas, with neither (as a gateway that cuts long streams does).
 */
async function streamDeltas(
  res: ServerResponse,
  id: string,
  model: string,
  deltas: object[],
  cut = false,
): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  const frame = (choices: object[], extra: object = {}): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const ending = [
    frame([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    frame([], { usage: USAGE }),
    'data: [DONE]\n\n',
  ];
  const frames = [
    ...deltas.map((delta) => frame([{ index: 0, delta, finish_reason: null }])),
    ...(cut ? [] : ending),
  ];
  for (const [index, text] of frames.entries()) {
    if (index > 0) await delay(10 + ((index * 7) % 21));
    if (res.destroyed) return;
    res.write(text);
  }
  res.end();
}

async function complete(res: ServerResponse, id: string, model: string, message: object): Promise<void> {
  await delay(40);
  if (res.destroyed) return;
  const choices = [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }];
  sendJson(res, 200, {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices,
    usage: USAGE,
  });
}

/**
 * How much of the canned answer a request already holds: the length of the assistant's words before its
 * last message when they begin the answer (the router asking to go on with it), else 0.
 */
function answeredSoFar(body: Record<string, unknown>): number {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
  const before: unknown = messages.at(-2);
  if (typeof before !== 'object' || before === null) return 0;
  const { role, content } = before as { role?: unknown; content?: unknown };
  if (role !== 'assistant' || typeof content !== 'string' || content === '') return 0;
  return ANSWER_TEXT.startsWith(content) ? content.length : 0;
}

/**
 * The canned answer's pieces from `from` on; going on from a cut, it starts again at the cut word's start,
 * restating it as models do (the router trims the repeat).
 */
function piecesFrom(from: number): string[] {
  if (from === 0) return ANSWER;
  const restart = Math.max(0, ANSWER_TEXT.lastIndexOf(' ', from - 1) + 1);
  const rest = ANSWER_TEXT.slice(restart);
  const size = Math.ceil(rest.length / 3);
  return [rest.slice(0, size), rest.slice(size, 2 * size), rest.slice(2 * size)].filter((piece) => piece);
}

interface AnswerShape {
  stream: boolean;
  reason: boolean;
  /** Characters of the answer the request already holds (see {@link answeredSoFar}). */
  from: number;
  /** The stream is cut after the reasoning and the answer's first two pieces. */
  cut?: boolean;
}

async function answer(res: ServerResponse, id: string, model: string, shape: AnswerShape): Promise<void> {
  const pieces = piecesFrom(shape.from);
  // Going on with an answer that has text: its own reasoning would be left out anyway.
  const reasoning = shape.reason && shape.from === 0 ? REASONING : [];
  if (!shape.stream) {
    const message = {
      content: pieces.join(''),
      ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('') } : {}),
    };
    return complete(res, id, model, message);
  }
  const deltas = [
    { role: 'assistant', content: '' },
    ...reasoning.map((text) => ({ reasoning_content: text })),
    ...(shape.cut ? pieces.slice(0, 2) : pieces).map((text) => ({ content: text })),
  ];
  return streamDeltas(res, id, model, deltas, shape.cut === true);
}

/** An OpenAI-shaped error answer. */
function fail(
  res: ServerResponse,
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
): void {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, apiError(message, type, code), headers);
}

interface Call {
  res: ServerResponse;
  id: string;
  model: string;
  stream: boolean;
  /** Characters of the canned answer the request already holds. */
  from: number;
}

/** The simulated server's counters: every third `coin` request fails, every other `cut` stream is cut. */
interface Counters {
  coin: () => number;
  cut: () => number;
}

/** Answers one chat request as its model's behaviour dictates. */
async function behave(behaviour: Behaviour, call: Call, counters: Counters): Promise<void> {
  const { res, id, model, stream, from } = call;
  switch (behaviour) {
    case 'empty':
      if (stream) return streamDeltas(res, id, model, [{ role: 'assistant' }]);
      return sendJson(res, 200, { id, object: 'chat.completion', created: 0, model, choices: [] });
    case 'error_payload': {
      const error = apiError('Provider returned error', 'server_error', 502);
      if (!stream) return sendJson(res, 200, error);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`data: ${JSON.stringify(error)}\n\ndata: [DONE]\n\n`);
      return;
    }
    case 'rate_limited':
      return fail(res, 429, 'Rate limit exceeded', 'rate_limit_exceeded', { 'retry-after': '30' });
    case 'hang':
      // Never answers: the router's timeout has to give up on it. close() destroys the socket.
      return;
    case 'coin':
      if (counters.coin() % 3 === 0) return fail(res, 503, 'Service temporarily unavailable', 'overloaded');
      return answer(res, id, model, { stream, reason: false, from });
    case 'cut':
      return answer(res, id, model, { stream, reason: true, from, cut: stream && counters.cut() % 2 === 1 });
    case 'answer':
    case 'reason':
      return answer(res, id, model, { stream, reason: behaviour === 'reason', from });
  }
}

const ROUTE = /^\/([A-Za-z0-9._-]+)\/v1\/(chat\/completions|models)$/;

/** The simulated server's request handler, with its {@link Counters}. */
function createHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  let requests = 0;
  let coinCalls = 0;
  let cutStreams = 0;
  const counters: Counters = { coin: () => ++coinCalls, cut: () => ++cutStreams };
  return async (req, res) => {
    const match = ROUTE.exec((req.url ?? '').split('?')[0] ?? '');
    const provider = match?.[1] ?? '';
    const models = Object.hasOwn(DEMO_PROVIDERS, provider) ? DEMO_PROVIDERS[provider] : undefined;
    if (!match || !models) return fail(res, 404, 'Not found', 'not_found');
    if (match[2] === 'models' && req.method === 'GET') {
      const data = Object.keys(models).map((id) => ({ id, object: 'model', created: 0, owned_by: provider }));
      return sendJson(res, 200, { object: 'list', data });
    }
    if (match[2] !== 'chat/completions' || req.method !== 'POST') {
      return fail(res, 405, 'Method not allowed', 'method_not_allowed');
    }
    const body = await readJson(req);
    if (!body) return fail(res, 400, 'Body must be a JSON object', 'invalid_json');
    const model = typeof body['model'] === 'string' ? body['model'] : '';
    const behaviour = Object.hasOwn(models, model) ? models[model] : undefined;
    if (!behaviour) return fail(res, 404, 'The model does not exist', 'model_not_found');
    const stream = body['stream'] === true;
    const call = { res, id: `chatcmpl-demo-${++requests}`, model, stream, from: answeredSoFar(body) };
    return behave(behaviour, call, counters);
  };
}

/**
 * Starts the simulated providers on `http://127.0.0.1:<port>` (port 0 picks a free one). Each provider
 * lives under `/<provider>/v1`. `close()` also ends hanging requests, so it never keeps the process alive.
 */
export async function startDemoUpstream(
  options: { port?: number; host?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const handle = createHandler();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      for (const socket of sockets) socket.destroy();
    }));
  return { url, close };
}
