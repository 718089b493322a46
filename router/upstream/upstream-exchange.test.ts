import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { deferred, ioTurns } from '../test-support/deferred.js';
import { AttemptAbort, isLocalFault } from './exchange-errors.js';
import {
  UpstreamExchange,
  type BodyPlan,
  type ChunkVerdict,
  type ExchangeHandler,
  type UpstreamHead,
} from './upstream-exchange.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** What a recording handler does at each callback; each defaults to the plain reading. */
interface Script {
  plan?: (head: UpstreamHead) => BodyPlan;
  chunk?: (chunk: Buffer, index: number) => ChunkVerdict;
  whole?: (body: Buffer | null) => void;
  error?: (error: Error) => void;
}

/** A handler that logs every callback; `ended` settles with the log at the first ending. */
class Recorder implements ExchangeHandler {
  readonly log: string[] = [];
  readonly chunks: Buffer[] = [];
  head: UpstreamHead | null = null;
  body: Buffer | null | undefined;
  snippet: string | null = null;
  error: Error | null = null;
  readonly #ended = deferred<string[]>();
  readonly ended = this.#ended.promise;

  constructor(private readonly script: Script = {}) {}

  onHead(head: UpstreamHead): BodyPlan {
    this.head = head;
    this.log.push(`head ${head.status}`);
    return this.script.plan?.(head) ?? { type: 'whole', limit: 1 << 20 };
  }

  onChunk(chunk: Buffer): ChunkVerdict {
    this.chunks.push(chunk);
    this.log.push('chunk');
    return this.script.chunk?.(chunk, this.chunks.length - 1);
  }

  onWhole(body: Buffer | null): void {
    this.body = body;
    this.log.push('whole');
    this.script.whole?.(body);
    this.#ended.resolve(this.log);
  }

  onSnippet(text: string): void {
    this.snippet = text;
    this.log.push('snippet');
    this.#ended.resolve(this.log);
  }

  onStreamEnd(): void {
    this.log.push('stream end');
    this.#ended.resolve(this.log);
  }

  onError(error: Error): void {
    this.error = error;
    this.log.push(isLocalFault(error) ? 'fault' : `error ${error.message}`);
    this.script.error?.(error);
    this.#ended.resolve(this.log);
  }
}

/** A real server on port 0, a pool to it, and a helper to open exchanges; everything closed after `run`. */
async function withServer(
  handler: Handler,
  run: (open: (recorder: Recorder) => UpstreamExchange) => Promise<void>,
  connections?: number,
): Promise<void> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pool = new Pool(url, connections ? { connections } : {});
  const open = (recorder: Recorder): UpstreamExchange => {
    const exchange = new UpstreamExchange(recorder);
    pool.dispatch({ path: '/', method: 'POST', body: '{}', headersTimeout: 0, bodyTimeout: 0 }, exchange);
    return exchange;
  };
  try {
    await run(open);
  } finally {
    await pool.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const stream = (): BodyPlan => ({ type: 'stream' });
const closedPromise = (res: http.ServerResponse): Promise<void> =>
  new Promise((resolve) => res.on('close', () => resolve()));

test('the head and the whole body of a JSON answer, then nothing more', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'retry-after': '7',
        'x-ratelimit-remaining-requests': '12',
        'x-ratelimit-reset-requests': '2m0s',
      });
      res.end('{"ok":true}');
    },
    async (open) => {
      const recorder = new Recorder();
      const exchange = open(recorder);
      assert.deepEqual(await recorder.ended, ['head 200', 'whole']);
      assert.equal(exchange.sent, true);
      assert.deepEqual(recorder.head, {
        status: 200,
        contentType: 'application/json',
        retryAfter: '7',
        rateLimit: { requests: { remaining: 12, resetMs: 120_000 }, tokens: null },
      });
      assert.equal(recorder.body?.toString('utf8'), '{"ok":true}');
    },
  );
});

test('a body over the limit ends as null and its connection is dropped', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = closedPromise(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      // The rest never comes: only the router's limit can end this read.
      res.write(Buffer.alloc(4096, 'a'));
    },
    async (open) => {
      const recorder = new Recorder({ plan: () => ({ type: 'whole', limit: 1000 }) });
      open(recorder);
      assert.deepEqual(await recorder.ended, ['head 200', 'whole']);
      assert.equal(recorder.body, null);
      await closed;
      assert.deepEqual(recorder.log, ['head 200', 'whole'], 'the cut is no second ending');
    },
  );
});

test('an error answer yields only the first bytes of its body, as text', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(429, { 'content-type': 'text/plain' });
      res.end(`slow down ${'x'.repeat(10_000)}`);
    },
    async (open) => {
      const recorder = new Recorder({ plan: () => ({ type: 'snippet', limit: 9 }) });
      open(recorder);
      assert.deepEqual(await recorder.ended, ['head 429', 'snippet']);
      assert.equal(recorder.snippet, 'slow down');
    },
  );
});

test('an abort of an error answer still hands over the snippet read so far', async () => {
  const written = deferred();
  await withServer(
    (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      // The body never ends: only the router's abort can end this read.
      res.write('maintenance', () => written.resolve());
    },
    async (open) => {
      let exchange: UpstreamExchange | null = null;
      const recorder = new Recorder({
        plan: () => {
          // Once the body's bytes have been read, as a deadline would find them.
          void written.promise
            .then(() => ioTurns())
            .then(() => exchange?.abort(new AttemptAbort('body_timeout')));
          return { type: 'snippet', limit: 2048 };
        },
      });
      exchange = open(recorder);
      assert.deepEqual(await recorder.ended, ['head 503', 'snippet']);
      assert.equal(recorder.error, null);
    },
  );
});

test('an abort while the request waits for a busy pool ends it at once and it is never sent', async () => {
  const seen = deferred<void>();
  let count = 0;
  let release: () => void = () => undefined;
  await withServer(
    (_req, res) => {
      count += 1;
      seen.resolve();
      release = () => res.end('{}');
    },
    async (open) => {
      const first = new Recorder();
      open(first);
      await seen.promise;
      const second = new Recorder();
      const aborted = open(second);
      aborted.abort(new AttemptAbort('timeout'));
      assert.deepEqual(second.log, ['error timeout'], 'ended synchronously, before any socket');
      release();
      await first.ended;
      assert.equal(count, 1, 'the aborted request is never sent');
      assert.equal(aborted.sent, false, 'and says so');
    },
    1,
  );
});

test('a stream waits while its consumer drains, with at most one chunk in hand, then ends in order', async () => {
  const CHUNK = 64 * 1024;
  const COUNT = 64;
  const heldBack = deferred<void>();
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pump = (i: number): void => {
        for (; i < COUNT; i += 1) {
          if (!res.write(Buffer.alloc(CHUNK, i % 256))) {
            heldBack.resolve();
            res.once('drain', () => pump(i + 1));
            return;
          }
        }
        res.end();
      };
      pump(0);
    },
    async (open) => {
      const gate = deferred<void>();
      const first = deferred<void>();
      const recorder = new Recorder({
        plan: stream,
        chunk: (_c, index) => {
          if (index !== 0) return undefined;
          first.resolve();
          return gate.promise;
        },
      });
      open(recorder);
      // The upstream's writes stop draining: it is held back while the first chunk waits. Nothing may
      // arrive meanwhile, however many rounds the event loop makes (bytes sit in the socket's buffers).
      await heldBack.promise;
      await first.promise;
      await ioTurns(20);
      assert.equal(recorder.chunks.length, 1, 'no chunk is delivered while the consumer drains');
      gate.resolve();
      assert.equal((await recorder.ended).at(-1), 'stream end');
      const all = Buffer.concat(recorder.chunks);
      assert.equal(all.length, CHUNK * COUNT);
      for (let i = 0; i < COUNT; i += 1) assert.equal(all[i * CHUNK], i % 256);
    },
  );
});

test('a stream its consumer stops is cut at the upstream, and no ending follows', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = closedPromise(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    },
    async (open) => {
      const stopped = deferred<void>();
      const recorder = new Recorder({
        plan: stream,
        chunk: () => {
          stopped.resolve();
          return false;
        },
      });
      open(recorder);
      await stopped.promise;
      await closed;
      assert.deepEqual(recorder.log, ['head 200', 'chunk']);
    },
  );
});

test('an abort mid-stream ends it with the reason and closes the upstream connection', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = closedPromise(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    },
    async (open) => {
      const first = deferred<void>();
      const recorder = new Recorder({ plan: stream, chunk: () => void first.resolve() });
      const exchange = open(recorder);
      await first.promise;
      exchange.abort(new AttemptAbort('stream_stall'));
      assert.deepEqual(await recorder.ended, ['head 200', 'chunk', 'error stream_stall']);
      await closed;
      assert.equal(recorder.log.length, 3, 'undici reporting the abort is no second ending');
    },
  );
});

test('the stream ends once, after the last chunk, also when the end came during a drain', async () => {
  const ended = deferred();
  let end: () => void = () => undefined;
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      end = () => res.end('data: two\n\n', () => ended.resolve());
    },
    async (open) => {
      const drain = deferred<void>();
      const first = deferred<void>();
      const recorder = new Recorder({
        plan: stream,
        // The first chunk waits on a drain that settles only after the upstream ended.
        chunk: (_c, index) => {
          if (index !== 0) return undefined;
          first.resolve();
          return drain.promise;
        },
      });
      open(recorder);
      await first.promise;
      end();
      await ended.promise;
      await ioTurns(); // the end has reached the exchange, which still waits on the drain
      drain.resolve();
      assert.deepEqual(await recorder.ended, ['head 200', 'chunk', 'chunk', 'stream end']);
      assert.deepEqual(
        recorder.chunks.map((chunk) => chunk.toString('utf8').trim()),
        ['data: one', 'data: two'],
      );
    },
  );
});

test('a network error ends the exchange with that error', async () => {
  await withServer(
    (req) => req.socket.destroy(),
    async (open) => {
      const recorder = new Recorder();
      const exchange = open(recorder);
      const log = await recorder.ended;
      assert.equal(log.length, 1);
      assert.ok(log[0]?.startsWith('error'));
      assert.equal(isLocalFault(recorder.error), false);
      assert.equal(exchange.sent, true, 'the request reached the server before it hung up');
    },
  );
});

test('a refused connection ends the exchange with its error, and the request was never sent', async () => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const pool = new Pool(`http://127.0.0.1:${port}`);
  try {
    const recorder = new Recorder();
    const exchange = new UpstreamExchange(recorder);
    pool.dispatch({ path: '/', method: 'POST', body: '{}' }, exchange);
    const log = await recorder.ended;
    assert.deepEqual(log, [`error ${recorder.error?.message ?? ''}`]);
    assert.equal((recorder.error as NodeJS.ErrnoException | null)?.code, 'ECONNREFUSED');
    assert.equal(exchange.sent, false);
  } finally {
    await pool.destroy();
  }
});

test("a throw in the handler's own code is a local fault: the upstream is cut and onError says so", async () => {
  for (const where of ['head', 'chunk', 'whole'] as const) {
    let closed: Promise<void> = Promise.resolve();
    await withServer(
      (_req, res) => {
        closed = closedPromise(res);
        res.writeHead(200, { 'content-type': where === 'chunk' ? 'text/event-stream' : 'application/json' });
        if (where === 'whole') res.end('{}');
        else res.write('data: {}\n\n');
      },
      async (open) => {
        const boom = (): never => {
          throw new RangeError('local bug');
        };
        const recorder = new Recorder({
          plan: where === 'head' ? boom : where === 'chunk' ? stream : undefined,
          chunk: boom,
          whole: boom,
        });
        open(recorder);
        const log = await recorder.ended;
        if (where === 'whole') assert.deepEqual(log.slice(0, 2), ['head 200', 'whole']);
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(recorder.log.at(-1), 'fault', `${where}: ${recorder.log.join(', ')}`);
        assert.ok(isLocalFault(recorder.error));
        if (where !== 'whole') await closed;
      },
    );
  }
});

test('a throw in onError itself, on the abort a deadline makes, is a local fault and never escapes', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    },
    async (open) => {
      const first = deferred();
      const recorder = new Recorder({
        plan: stream,
        chunk: () => {
          first.resolve();
          return undefined;
        },
        error: (error) => {
          if (!isLocalFault(error)) throw new RangeError('local bug in onError');
        },
      });
      const exchange = open(recorder);
      await first.promise;
      // The deadline timer's path: a throw here would reach the timer and end the process.
      assert.doesNotThrow(() => exchange.abort(new AttemptAbort('stream_stall')));
      assert.deepEqual(recorder.log.slice(-2), ['error stream_stall', 'fault']);
      assert.ok(isLocalFault(recorder.error));
      // One whose every onError throws is left alone: still nothing escapes.
      const arrived = deferred();
      const stubborn = new Recorder({
        plan: stream,
        chunk: () => {
          arrived.resolve();
          return undefined;
        },
        error: () => {
          throw new RangeError('always');
        },
      });
      const second = open(stubborn);
      await arrived.promise;
      assert.doesNotThrow(() => second.abort(new AttemptAbort('stream_stall')));
    },
  );
});
