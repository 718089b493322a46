/**
 * A request body still arriving at its deadline is answered 408 in the error shape of the protocol its path
 * speaks, with the decision headers every refusal on a face carries, and recorded under the request id
 * the client was given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ioTurns, within } from '../test-support/deferred.js';
import { httpRequest, rawExchange } from '../test-support/http-client.js';
import type { RouterHarness } from '../test-support/router-harness.js';
import { withScenario } from '../test-support/scenario.js';

const SLOW = { providers: { alpha: ['m1'] }, server: { requestBodyTimeoutMs: 500 } };

/** A raw HTTP answer: its status, lower-cased headers and body. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseRaw(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}

/** Sends the head of a POST to `path` and one byte of its body, lets the deadline pass, returns the answer. */
async function lateAnswer(
  router: RouterHarness,
  path: string,
  extraHeaders: Record<string, string> = {},
): Promise<RawAnswer> {
  const host = new URL(router.url).host;
  const extra = Object.entries(extraHeaders).map(([name, value]) => `${name}: ${value}\r\n`);
  const head =
    `POST ${path} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\n` +
    `${extra.join('')}content-length: 100\r\n\r\n{`;
  const slow = rawExchange(router.url, head);
  let closed = false;
  void slow.closed.then(() => (closed = true));
  try {
    // The deadline runs from the head, once the router has it: move the clock until the body is cut.
    for (let i = 0; i < 100 && !closed; i++) {
      await ioTurns(1);
      router.clock.advance(500);
    }
    return parseRaw(await within(slow.closed, `the router to cut the slow body on ${path}`));
  } finally {
    slow.socket.destroy();
  }
}

/** What another refusal on the same path (a wrong content type, 415) looks like, for its shape. */
async function otherRefusal(router: RouterHarness, path: string): Promise<RawAnswer> {
  const reply = await httpRequest(`${router.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: '{}',
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers)) headers[name] = String(value);
  return { status: reply.status, headers, body: reply.text };
}

/** The nested key names of a JSON body: its shape, whatever its words. */
function shapeOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, shapeOf(inner)]),
  );
}

test('a late body is answered 408 in each face’s own error shape, as its other refusals are', async () => {
  await withScenario(SLOW, async ({ router }) => {
    for (const path of ['/v1/chat/completions', '/v1/messages', '/v1/responses']) {
      const late = await lateAnswer(router, path);
      const other = await otherRefusal(router, path);
      assert.equal(late.status, 408, path);
      assert.equal(other.status, 415, path);
      assert.deepEqual(shapeOf(JSON.parse(late.body)), shapeOf(JSON.parse(other.body)), path);
      assert.equal(late.headers['content-type'], other.headers['content-type'], path);
      assert.equal(late.headers['x-fcm-v2-decision'], 'none!rejected||skips=0', path);
      assert.equal(late.headers.connection, 'close', path);
    }
    const messages = JSON.parse((await lateAnswer(router, '/v1/messages')).body) as {
      type: string;
      error: { type: string; message: string };
    };
    assert.equal(messages.type, 'error');
    assert.equal(messages.error.type, 'invalid_request_error');
    assert.match(messages.error.message, /did not arrive within 500 ms/);
  });
});

test('a late body’s answer and its history entry carry the same request id', async () => {
  await withScenario(SLOW, async ({ router }) => {
    const ended = router.nextEntry();
    const late = await lateAnswer(router, '/v1/messages');
    const entry = await ended;
    assert.equal(entry.clientStatus, 408);
    assert.equal(entry.api, 'messages');
    assert.ok(late.headers['x-request-id']?.startsWith('req-'));
    assert.equal(late.headers['x-request-id'], entry.requestId);

    const named = router.nextEntry();
    const answered = await lateAnswer(router, '/v1/responses', { 'x-request-id': 'mine-1' });
    assert.equal(answered.headers['x-request-id'], 'mine-1');
    assert.equal((await named).requestId, 'mine-1');
  });
});

test('a late body on Claude Code’s token count is answered in Anthropic’s shape, as its other errors are', async () => {
  await withScenario(SLOW, async ({ router }) => {
    const late = await lateAnswer(router, '/v1/messages/count_tokens');
    assert.equal(late.status, 408);
    const body = JSON.parse(late.body) as { type: string; error: { type: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
  });
});

test('a late body elsewhere (the dashboard’s API) stays OpenAI-shaped', async () => {
  await withScenario(SLOW, async ({ router }) => {
    const late = await lateAnswer(router, '/api/pause', { 'x-fcm-token': router.token });
    assert.equal(late.status, 408);
    const body = JSON.parse(late.body) as { error: { code: string } };
    assert.equal(body.error.code, 'request_timeout');
  });
});
