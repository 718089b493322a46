/**
 * The chaos soak's fake providers: one real HTTP server on loopback; `/<provider>/v1/chat/completions`
 * looks the request up by its `x-request-id` (`soak-<index>`, or a health probe's `probe-<uuid>`) and the
 * model it names, and behaves as the request's plan says: a good answer (fast, slow or reasoning first), or one of every failure the engine
 * knows. It checks each request carries its provider's key, and counts what it did.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CallBook } from './chaos-calls.js';
import { continuedFrom, restartAt } from '../router/test-support/continuing-model.js';
import { cellRandom } from './prng.js';
import { PROBE_ID, probePlan } from './soak-probes.js';
import {
  answerText,
  planRequest,
  type Behaviour,
  type RequestPlan,
  type SoakModel,
} from './soak-scenarios.js';

export interface ChaosOptions {
  seed: number;
  models: readonly SoakModel[];
  /** Provider id → the keys its requests may carry (one of them). */
  keys: Readonly<Record<string, readonly string[]>>;
  /** Text every good answer carries (the completion canary). */
  canary: string;
  /** The soak's time: the scripted delays wait on it, and what the upstream does is reported to it. */
  clock: ChaosClock;
}

/** What the chaos upstream needs of the soak's clock (`soak-clock.ts`). */
export interface ChaosClock {
  sleep(ms: number): Promise<void>;
  /** Called on every connection, request, body part read and response finished or closed. */
  touch(): void;
}

/**
 * How long a slow model waits before its answer: longer than the soak's hedge delay (300 ms), so a hedge
 * always starts beside it and races it, and far below its request timeout.
 */
export const SLOW_MS = 400;

export interface ChaosUpstream {
  url: string;
  /** The calls in progress, and which of them wait on the clock or are held open. */
  calls: CallBook;
  /** Calls per behaviour so far (agents' and probes'). */
  counts: Map<Behaviour, number>;
  /** Calls made by health probes. */
  readonly probeCalls: number;
  /** Requests that came without their provider's key, or for a model or request the plan does not know. */
  strays: string[];
  close(): Promise<void>;
}

const chunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-chaos', object: 'chat.completion.chunk', created: 0, model: 'chaos', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';
const USAGE = `data: ${JSON.stringify({ id: 'chatcmpl-chaos', object: 'chat.completion.chunk', created: 0, choices: [], usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 } })}\n\n`;
const ERROR = { error: { message: 'upstream exploded', type: 'server_error', code: 'boom' } };

function completion(content: string, extra: object = {}): string {
  return JSON.stringify({
    id: 'chatcmpl-chaos',
    object: 'chat.completion',
    created: 0,
    model: 'chaos',
    choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 },
  });
}

/** Cuts the answer into a few deltas. */
function pieces(text: string): string[] {
  const size = Math.ceil(text.length / 4);
  return Array.from({ length: 4 }, (_, i) => text.slice(i * size, (i + 1) * size)).filter(Boolean);
}

const STATUS: Partial<Record<Behaviour, number>> = {
  s429: 429,
  s400: 400,
  s404: 404,
  s500: 500,
  s503: 503,
  s529: 529,
  s401: 401,
};

/** Holds the response open until the router gives up on it (or the server closes). */
const holdOpen = (res: http.ServerResponse): Promise<void> =>
  new Promise((resolve) => res.once('close', () => resolve()));

/** How one call waits: on the soak's clock, or held open; each counted as waiting meanwhile. */
interface Waits {
  sleep(ms: number): Promise<void>;
  holdOpen(res: http.ServerResponse): Promise<void>;
}

/**
 * Streams `text` in a few pieces. For a client that leaves at its first bytes (`leaves`), the stream holds
 * after the first piece until the router gives up on it: the router must see the client gone, which a whole
 * stream written at once would race.
 */
async function streamAnswer(
  res: http.ServerResponse,
  text: string,
  options: { gapMs: number; reasoning: boolean; leaves: boolean; waits: Waits },
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk({ role: 'assistant' }));
  if (options.reasoning)
    for (const part of ['Thinking ', 'it over.']) res.write(chunk({ reasoning_content: part }));
  for (const part of pieces(text)) {
    if (options.gapMs > 0) await options.waits.sleep(options.gapMs);
    if (res.destroyed) return;
    res.write(chunk({ content: part }));
    if (options.leaves) return options.waits.holdOpen(res);
  }
  res.end(chunk({}, 'stop') + USAGE + DONE);
}

async function behave(
  behaviour: Behaviour,
  ask: { stream: boolean; leaves: boolean; waits: Waits },
  text: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const { stream, leaves, waits } = ask;
  const { sleep } = waits;
  const status = STATUS[behaviour];
  if (status !== undefined) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (status === 429) headers['retry-after'] = '1';
    res.writeHead(status, headers).end(JSON.stringify(ERROR));
    return;
  }
  const json = (body: string): void =>
    void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  const partialJson = completion(text).slice(0, 40);
  switch (behaviour) {
    case 'good':
    case 'reasoning_good':
      if (stream)
        return streamAnswer(res, text, {
          gapMs: 0,
          reasoning: behaviour === 'reasoning_good',
          leaves,
          waits,
        });
      return json(
        completion(text, behaviour === 'reasoning_good' ? { reasoning_content: 'Thinking it over.' } : {}),
      );
    case 'slow_good':
      await sleep(SLOW_MS);
      if (stream) return streamAnswer(res, text, { gapMs: 20, reasoning: false, leaves, waits });
      return json(completion(text));
    case 'empty':
      if (stream) return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(DONE);
      return json(JSON.stringify({ id: 'chatcmpl-chaos', object: 'chat.completion', choices: [] }));
    case 'empty_content':
      if (stream)
        return void res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(chunk({ role: 'assistant' }) + chunk({}, 'stop') + DONE);
      return json(completion(''));
    case 'error_payload':
      if (stream)
        return void res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(`data: ${JSON.stringify(ERROR)}\n\n`);
      return json(JSON.stringify(ERROR));
    case 'html':
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><html><body>Down for maintenance</body></html>');
    case 'invalid_json':
      return json('{"choices": [{"message": ');
    case 'stall_before':
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      if (stream) res.flushHeaders();
      else res.write(partialJson);
      return waits.holdOpen(res);
    case 'hang':
      return waits.holdOpen(res);
    case 'reset':
      return void req.socket.destroy();
    case 'stall_after':
    case 'reset_mid':
    case 'error_after':
    case 'ends_mid': {
      if (!stream) {
        if (behaviour === 'error_after') return json(JSON.stringify(ERROR));
        // Closed cleanly half-way: a body that is not JSON.
        if (behaviour === 'ends_mid') return json(partialJson);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(partialJson);
        if (behaviour === 'stall_after') return waits.holdOpen(res);
        await sleep(5);
        return void req.socket.destroy();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Half its answer, and never all of it: it dies mid-answer.
      const [first = '', second = ''] = pieces(text);
      const said = `${first}${second}`.slice(0, Math.max(1, text.length - 1));
      res.write(chunk({ role: 'assistant', content: said.slice(0, first.length) }));
      if (said.length > first.length) res.write(chunk({ content: said.slice(first.length) }));
      if (behaviour === 'stall_after') return waits.holdOpen(res);
      await sleep(5);
      if (behaviour === 'reset_mid') return void req.socket.destroy();
      // Closed cleanly with neither a finish reason nor [DONE], as a proxy that cuts a long stream does.
      if (behaviour === 'ends_mid') return void res.end();
      return void res.end(`data: ${JSON.stringify(ERROR)}\n\n`);
    }
    default:
      return void res.writeHead(500).end();
  }
}

/**
 * What a chaos model answers: its own answer, or, asked to continue an answer (one of the models' answers
 * for the request, cut short), the rest of it, first restating up to two whole words of it as models do
 * (at least one when less than two characters are left); null for a continuation of no model's answer.
 */
function answerFor(
  options: ChaosOptions,
  ask: { body: Record<string, unknown>; key: string; index: number; column: number },
): string | null {
  const { index, column } = ask;
  const sofar = continuedFrom(ask.body);
  if (sofar === null) return answerText(ask.key, index, options.canary);
  const answers = options.models.map((model) => answerText(model.key, index, options.canary));
  const full = answers.find((answer) => answer.startsWith(sofar));
  if (full === undefined) return null;
  const words = Math.floor(cellRandom(options.seed, index, column + 1000)() * 3);
  return full.slice(restartAt(sofar, full.length - sofar.length < 2 ? Math.max(1, words) : words));
}

/** Starts the chaos upstream on 127.0.0.1. */
export async function startChaosUpstream(options: ChaosOptions): Promise<ChaosUpstream> {
  const counts = new Map<Behaviour, number>();
  const strays: string[] = [];
  let probeCalls = 0;
  const column = new Map(options.models.map((model, i) => [model.key, i]));
  const plans = new Map<number, RequestPlan>();
  const planOf = (index: number): RequestPlan => {
    let plan = plans.get(index);
    if (!plan) {
      plan = planRequest(options.seed, index, options.models);
      plans.set(index, plan);
    }
    return plan;
  };
  const sockets = new Set<Socket>();

  const { touch } = options.clock;
  const calls = new CallBook();
  const server = http.createServer(async (req, res) => {
    touch();
    calls.track(res, String(req.headers['x-request-id']));
    res.once('finish', touch);
    res.once('close', touch);
    const parts: Buffer[] = [];
    for await (const part of req) {
      touch();
      parts.push(part as Buffer);
    }
    const provider = /^\/([^/]+)\/v1\/chat\/completions$/.exec(req.url ?? '')?.[1] ?? '';
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
    } catch {
      // Falls through to the stray check below.
    }
    const key = `${provider}/${String(body.model)}`;
    const requestId = String(req.headers['x-request-id']);
    const probe = PROBE_ID.test(requestId);
    const index = probe ? -1 : Number(/^soak-(\d+)$/.exec(requestId)?.[1] ?? Number.NaN);
    const col = column.get(key);
    const keyed = (options.keys[provider] ?? []).some((own) => req.headers.authorization === `Bearer ${own}`);
    if (col === undefined || !Number.isInteger(index) || !keyed) {
      strays.push(`${req.url} ${key} ${requestId} key=${keyed}`);
      res.writeHead(418).end();
      return;
    }
    if (probe) probeCalls += 1;
    const plan = probe ? probePlan(options.seed, requestId, options.models, key) : planOf(index);
    const behaviour = plan.behaviours[col] as Behaviour;
    counts.set(behaviour, (counts.get(behaviour) ?? 0) + 1);
    const text = answerFor(options, { body, key, index, column: col });
    if (text === null) {
      strays.push(`${key} ${requestId}: a continuation of an answer no model gave`);
      res.writeHead(418).end();
      return;
    }
    const waits: Waits = {
      sleep: (ms) => calls.wait(res, options.clock.sleep(ms)),
      holdOpen: (held) => calls.wait(held, holdOpen(held)),
    };
    const ask = { stream: body.stream === true, leaves: plan.leaves === true, waits };
    await behave(behaviour, ask, text, req, res);
  });
  server.on('connection', (socket) => {
    touch();
    sockets.add(socket);
    socket.once('close', () => {
      touch();
      sockets.delete(socket);
    });
  });
  // No keep-alive timeout of the server's own, on the wall clock: the router's pool alone closes an idle
  // connection, so a call never meets one the server closed as it was sent.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    counts,
    get probeCalls() {
      return probeCalls;
    },
    strays,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
