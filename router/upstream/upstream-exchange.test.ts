import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { UpstreamExchange } from './upstream-exchange.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A real server on port 0, a pool to it, and a helper to open exchanges; everything closed after `run`. */
async function withServer(
  handler: Handler,
  run: (open: () => UpstreamExchange, pool: Pool) => Promise<void>,
  connections?: number,
): Promise<void> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pool = new Pool(url, connections ? { connections } : {});
  const open = (): UpstreamExchange => {
    const exchange = new UpstreamExchange();
    pool.dispatch({ path: '/', method: 'POST', body: '{}', headersTimeout: 0, bodyTimeout: 0 }, exchange);
    return exchange;
  };
  try {
    await run(open, pool);
  } finally {
    await pool.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('the head and the whole body of a JSON answer', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end('{"ok":true}');
    },
    async (open) => {
      const exchange = open();
      const head = await exchange.head();
      assert.deepEqual(head, { status: 200, contentType: 'application/json', retryAfter: '7' });
      const body = await exchange.readAll(1024);
      assert.equal(body?.toString('utf8'), '{"ok":true}');
    },
  );
});

test('a body over the limit reads as null and its connection is dropped', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(Buffer.alloc(4096, 'a'));
      // The rest never comes: only the router's limit can end this read.
    },
    async (open) => {
      const exchange = open();
      await exchange.head();
      assert.equal(await exchange.readAll(1000), null);
      await closed;
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
      const exchange = open();
      assert.equal((await exchange.head()).status, 429);
      const snippet = await exchange.readSnippet(9);
      assert.equal(snippet, 'slow down');
    },
  );
});

test('an abort while the request waits for a busy pool settles at once', async () => {
  let release: () => void = () => undefined;
  const seen: string[] = [];
  await withServer(
    (req, res) => {
      seen.push(req.url ?? '');
      release = () => res.end('{}');
    },
    async (open) => {
      const first = open();
      while (seen.length === 0) await sleep(5);
      const second = open();
      const startedAt = performance.now();
      const head = second.head();
      second.abort(new Error('timeout'));
      await assert.rejects(head, /timeout/);
      assert.ok(performance.now() - startedAt < 50);
      release();
      await first.head();
      await sleep(30);
      assert.equal(seen.length, 1, 'the aborted request is never sent');
    },
    1,
  );
});

test('a stream waits while its consumer drains, with at most one chunk in hand, then ends in order', async () => {
  const CHUNK = 64 * 1024;
  const COUNT = 64;
  let needDrain = false;
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const pump = (i: number): void => {
        for (; i < COUNT; i += 1) {
          if (!res.write(Buffer.alloc(CHUNK, i % 256))) {
            needDrain = true;
            res.once('drain', () => pump(i + 1));
            return;
          }
        }
        res.end();
      };
      pump(0);
    },
    async (open) => {
      const exchange = open();
      await exchange.head();
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const received: Buffer[] = [];
      const done = exchange.stream((chunk) => {
        received.push(chunk);
        return received.length === 1 ? gate : undefined;
      });
      await sleep(100);
      assert.equal(received.length, 1, 'no chunk is delivered while the consumer drains');
      assert.ok(needDrain, 'the upstream is held back (its writes no longer drain)');
      release();
      await done;
      const all = Buffer.concat(received);
      assert.equal(all.length, CHUNK * COUNT);
      for (let i = 0; i < COUNT; i += 1) assert.equal(all[i * CHUNK], i % 256);
    },
  );
});

test('a stream its consumer stops is cut at the upstream', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    },
    async (open) => {
      const exchange = open();
      await exchange.head();
      let calls = 0;
      await exchange.stream(() => {
        calls += 1;
        return false;
      });
      assert.equal(calls, 1);
      await closed;
    },
  );
});

test('an abort mid-stream rejects the stream and closes the upstream connection', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    },
    async (open) => {
      const exchange = open();
      await exchange.head();
      const done = exchange.stream(() => undefined);
      await sleep(20);
      exchange.abort(new Error('stream_stall'));
      await assert.rejects(done, /stream_stall/);
      await closed;
    },
  );
});

test('onEnd runs once, after the last chunk and before the stream settles, also after a drain', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 20);
    },
    async (open) => {
      const exchange = open();
      await exchange.head();
      const events: string[] = [];
      let settled = false;
      const done = exchange.stream(
        (chunk) => {
          events.push(`chunk ${chunk.toString('utf8').trim()}`);
          // The first chunk waits on a drain that settles later: the end must wait for it too.
          return events.length === 1 ? sleep(40) : undefined;
        },
        () => events.push(settled ? 'end after settle' : 'end'),
      );
      void done.then(() => (settled = true));
      await done;
      assert.deepEqual(events, ['chunk data: one', 'chunk data: two', 'end']);
    },
  );
});

test('onEnd never runs for a stream its consumer stops or that is aborted', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
      setTimeout(() => res.end(), 30);
    },
    async (open) => {
      let ends = 0;
      const stopped = open();
      await stopped.head();
      await stopped.stream(
        () => false,
        () => (ends += 1),
      );
      const aborted = open();
      await aborted.head();
      const done = aborted.stream(
        () => undefined,
        () => (ends += 1),
      );
      aborted.abort(new Error('stream_stall'));
      await assert.rejects(done, /stream_stall/);
      await sleep(60);
      assert.equal(ends, 0);
    },
  );
});

test('a network error rejects the head', async () => {
  await withServer(
    (req) => req.socket.destroy(),
    async (open) => {
      await assert.rejects(open().head());
    },
  );
});

test('whenSent runs once per request, after it is written and before the upstream has seen it', async () => {
  const seen: string[] = [];
  await withServer(
    (req, res) => {
      seen.push(req.url ?? '');
      res.end('{}');
    },
    async (open) => {
      // The first request opens the connection; the second reuses it (undici writes that one a turn later).
      for (const round of [1, 2]) {
        const exchange = open();
        const atTask: number[] = [];
        exchange.whenSent(() => atTask.push(seen.length));
        await Promise.resolve();
        assert.deepEqual(atTask, [], `round ${round}: not before the request is written`);
        await exchange.head();
        await exchange.readAll(1024);
        assert.deepEqual(atTask, [round - 1], `round ${round}: once, before the upstream read it`);
      }
    },
    1,
  );
});

test('whenSent also runs for a request that is aborted before it could be written', async () => {
  let release: (() => void) | null = null;
  await withServer(
    (_req, res) => {
      release = () => res.end('{}');
    },
    async (open) => {
      const first = open();
      while (release === null) await sleep(5);
      // The only connection is busy: the second request waits in undici's queue, unwritten.
      const second = open();
      let ran = 0;
      second.whenSent(() => (ran += 1));
      second.abort(new Error('timeout'));
      await assert.rejects(second.head(), /timeout/);
      assert.equal(ran, 1);
      (release as () => void)();
      await first.head();
    },
    1,
  );
});

test('whenWholeEarly hands over a body that came at once, inside the end callback, and it stays readable', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    },
    async (open) => {
      const exchange = open();
      const seen: string[] = [];
      exchange.whenWholeEarly((head, body) => seen.push(`${head.status} ${body.toString('utf8')}`));
      await exchange.head();
      assert.deepEqual(seen, ['200 {"ok":true}'], 'before the head promise has even settled for its reader');
      assert.equal((await exchange.readAll(1024))?.toString('utf8'), '{"ok":true}');
      assert.equal(seen.length, 1);
    },
  );
});

test('whenWholeEarly stays out of a body that a reader was already waiting for', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":');
      setTimeout(() => res.end('true}'), 30);
    },
    async (open) => {
      const exchange = open();
      let ran = 0;
      exchange.whenWholeEarly(() => (ran += 1));
      await exchange.head();
      assert.equal((await exchange.readAll(1024))?.toString('utf8'), '{"ok":true}');
      assert.equal(ran, 0);
    },
  );
});

const isSse = (head: { status: number; contentType: string | null }): boolean =>
  head.status === 200 && head.contentType === 'text/event-stream';

test('streamEarly: an accepted head starts the stream in its callback, and stream() carries on with it', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      setTimeout(() => res.end('data: 2\n\n'), 20);
    },
    async (open) => {
      const exchange = open();
      const received: string[] = [];
      let ended = 0;
      const onChunk = (chunk: Buffer): undefined => {
        received.push(chunk.toString('utf8'));
        return undefined;
      };
      exchange.streamEarly(isSse, onChunk, () => (ended += 1));
      await exchange.head();
      assert.deepEqual(received, ['data: 1\n\n'], 'the first chunk was handed over before the head was read');
      await exchange.stream(onChunk, () => (ended += 1));
      assert.deepEqual(received, ['data: 1\n\n', 'data: 2\n\n']);
      assert.equal(ended, 1, 'onEnd ran once');
    },
  );
});

test('streamEarly: a head it does not accept leaves the body to the usual reads', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    },
    async (open) => {
      const exchange = open();
      let chunks = 0;
      exchange.streamEarly(
        isSse,
        () => {
          chunks += 1;
          return undefined;
        },
        () => undefined,
      );
      await exchange.head();
      assert.equal((await exchange.readAll(1024))?.toString('utf8'), '{"ok":true}');
      assert.equal(chunks, 0);
    },
  );
});

test('streamEarly: a consumer that stops at its first chunk cuts the upstream, and stream() settles', async () => {
  let closed: Promise<void> = Promise.resolve();
  await withServer(
    (_req, res) => {
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"error":"x"}\n\n');
    },
    async (open) => {
      const exchange = open();
      let calls = 0;
      let ended = 0;
      const stop = (): false => {
        calls += 1;
        return false;
      };
      exchange.streamEarly(isSse, stop, () => (ended += 1));
      await exchange.head();
      await exchange.stream(stop);
      assert.equal(calls, 1);
      assert.equal(ended, 0, 'a stopped stream never ends as whole');
      await closed;
    },
  );
});
