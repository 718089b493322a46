/**
 * What clients send is bounded: an oversized body gets its 413 even while the client is still sending
 * (lingering close), a body that trickles in is cut at the deadline, and past a cap of bodies still
 * arriving new ones are turned away, while a long streaming answer is never cut by any of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorResponse } from '../api-types.js';
import { deferred, ioTurns, within } from '../test-support/deferred.js';
import { httpRequest, parseReply, postRecording, rawExchange, sseText } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json, sse } from '../test-support/upstream-behaviours.js';
import { contentFrame, roleFrame } from '../test-support/upstream-frames.js';

const ONE = { providers: { alpha: ['m1'] } };
const CHAT = JSON.stringify({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] });

test('an oversized body gets its 413 while the client is still sending: no EPIPE, no reset', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const chatBody = Buffer.alloc(11 * 1024 * 1024, 0x20);
    const apiBody = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const json_ = { 'content-type': 'application/json' };
    for (const chunked of [false, true]) {
      for (let i = 0; i < 8; i++) {
        const chat = await postRecording(`${router.url}/v1/chat/completions`, chatBody, json_, chunked);
        assert.deepEqual(
          chat,
          { status: 413, errors: [] },
          `chat, ${chunked ? 'chunked' : 'with length'}, #${i}`,
        );
        const api = await postRecording(
          `${router.url}/api/pause`,
          apiBody,
          { ...json_, 'x-fcm-token': router.token },
          chunked,
        );
        assert.deepEqual(
          api,
          { status: 413, errors: [] },
          `api, ${chunked ? 'chunked' : 'with length'}, #${i}`,
        );
      }
    }
    assert.equal(upstream.calls.length, 0);
  });
});

const slowHead = (host: string, length: number): string =>
  `POST /v1/chat/completions HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n{`;

test('a body that trickles in is cut at the request deadline, on the router’s clock', async () => {
  await withScenario({ ...ONE, server: { requestBodyTimeoutMs: 500 } }, async ({ router, upstream }) => {
    const host = new URL(router.url).host;
    const slow = rawExchange(router.url, slowHead(host, CHAT.length));
    let closed = false;
    void slow.closed.then(() => (closed = true));
    try {
      // A byte every 100 ms does not move the deadline: it runs from the request's head.
      for (let i = 0; i < 4; i++) {
        await ioTurns();
        router.clock.advance(100);
        slow.socket.write(' ');
      }
      await ioTurns();
      router.clock.advance(99);
      await ioTurns();
      assert.equal(closed, false, 'still open just before the deadline');
      router.clock.advance(1);
      const received = await within(slow.closed, 'the router to close a trickling request');
      assert.match(received, /^HTTP\/1\.1 408 /);
      assert.match(received, /"code":"request_timeout"/);
      assert.match(received, /requestBodyTimeoutMs/);
    } finally {
      slow.socket.destroy();
    }
    assert.equal(upstream.calls.length, 0);
  });
});

test('a streaming answer that outlasts the request deadline is not cut', async () => {
  const options = { ...ONE, server: { requestBodyTimeoutMs: 500 }, failover: { streamIdleTimeoutMs: 8000 } };
  await withScenario(options, async ({ router, upstream }) => {
    const pause = deferred();
    upstream.script(
      'alpha/m1',
      sse([roleFrame(), contentFrame('before '), pause.promise, contentFrame('after')]),
    );
    const reply = router.readChat({ stream: true });
    await reply.received('before');
    // Well past the body's deadline (the body was in long ago), inside the stream's idle limit.
    router.clock.advance(2500);
    pause.resolve();
    const { status, text } = await reply.done;
    assert.equal(status, 200);
    assert.equal(sseText(text), 'before after');
  });
});

test('past the cap of bodies still arriving, new requests get 503 at once; reads and finished uploads go on', async () => {
  await withScenario({ ...ONE, server: { maxPendingBodies: 2 } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const host = new URL(router.url).host;
    const slow = [rawExchange(router.url, slowHead(host, 2)), rawExchange(router.url, slowHead(host, 2))];
    try {
      // Both slow requests are in once a third body is refused; ask again, a few event-loop rounds apart.
      let refused = null;
      for (let i = 0; i < 50 && refused === null; i++) {
        const reply = await httpRequest(`${router.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: CHAT,
        });
        if (reply.status === 503) refused = reply;
        else await ioTurns();
      }
      assert.ok(refused, 'a third body was refused');
      const error = parseReply<ErrorResponse>(refused).error;
      assert.equal(error.code, 'server_busy');
      assert.match(error.message, /still sending/);
      assert.ok(refused.headers['retry-after']);
      assert.equal(refused.headers['x-fcm-v2-decision'], 'none!rejected||skips=0');
      assert.equal((await router.get('/api/state')).status, 200, 'a read has no body to wait for');

      slow[0]?.socket.end('}');
      const answered = await within(slow[0]?.closed ?? Promise.resolve(''), 'the finished slow request');
      assert.match(answered, /^HTTP\/1\.1 400 /, 'its (invalid) body was read and judged');
      const after = await router.chat();
      assert.equal(after.status, 200, 'room again once a body arrived');
    } finally {
      for (const exchange of slow) exchange.socket.destroy();
    }
  });
});
