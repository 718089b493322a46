/**
 * Every answer given before a request body is complete frees its slot among the bodies still arriving,
 * also when the client hangs up before sending the rest, and reaches a client that is still sending.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ioTurns, within } from '../test-support/deferred.js';
import { postRecording } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const ONE = { providers: { alpha: ['m1'] } };
type Head = (host: string) => string;

/** Sends a request head and the start of its body, reads the router's status line, then hangs up. */
async function answerThenHangUp(url: string, head: Head): Promise<string> {
  const { hostname, port, host } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  let received = '';
  const answered = new Promise<string>((resolve) => {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.includes('\r\n')) resolve(received.slice(0, received.indexOf('\r\n')));
    });
    socket.on('close', () => resolve(received));
  });
  socket.write(head(host));
  const status = await within(answered, 'the early answer');
  socket.destroy();
  return status;
}

/**
 * How often a 503 `server_busy` is asked again, a few rounds of the event loop apart: the router sees a
 * hang-up once it reads the socket's close.
 */
const BUSY_RETRIES = 250;

/**
 * The status line of `head`'s answer. A 503 `server_busy` is asked again until the router has seen the
 * previous hang-up, which may come after the next request's head; the old code never frees the slot, so
 * the bound only ends a failing run.
 */
async function statusOf(url: string, head: Head): Promise<string> {
  for (let i = 0; ; i++) {
    const line = await answerThenHangUp(url, head);
    if (!line.includes(' 503 ') || i === BUSY_RETRIES) return line;
    await ioTurns();
  }
}

const post =
  (path: string, headers: string, length: number): Head =>
  (host) =>
    `POST ${path} HTTP/1.1\r\nhost: ${host}\r\n${headers}content-length: ${length}\r\n\r\n{"a":`;
const JSON_TYPE = 'content-type: application/json\r\n';

const EARLY: Array<[string, Head, RegExp]> = [
  ['413', post('/v1/chat/completions', JSON_TYPE, 20 * 1024 * 1024), / 413 /],
  ['415', post('/v1/messages', 'content-type: text/plain\r\n', 1000), / 415 /],
  ['404', post('/v1/nowhere', JSON_TYPE, 1000), / 404 /],
  ['405', post('/v1/models', JSON_TYPE, 1000), / 405 /],
  ['403', post('/api/config', JSON_TYPE, 1000), / 403 /],
  ['413 api', post('/api/pause', `${JSON_TYPE}x-fcm-token: TOKEN\r\n`, 20 * 1024 * 1024), / 413 /],
];

test('early answers to clients that hang up mid-body free their slots', async () => {
  await withScenario({ ...ONE, server: { maxPendingBodies: 3 } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    for (const [name, head, status] of EARLY) {
      const withToken: Head = (host) => head(host).replace('TOKEN', router.token);
      for (let i = 0; i < 6; i++)
        assert.match(await statusOf(router.url, withToken), status, `${name} #${i}`);
    }
    let reply = await router.chat();
    for (let i = 0; reply.status === 503 && i < BUSY_RETRIES; i++) {
      await ioTurns();
      reply = await router.chat();
    }
    assert.equal(reply.status, 200, `after the early answers: ${reply.text}`);
  });
});

test('a large PUT /api/config without the token reads its 403, never a reset', async () => {
  await withScenario(ONE, async ({ router }) => {
    const body = Buffer.alloc(50 * 1024 * 1024, 0x20);
    for (let i = 0; i < 5; i++) {
      const put = await postRecording(
        `${router.url}/api/config`,
        body,
        { 'content-type': 'application/json' },
        false,
        'PUT',
      );
      assert.deepEqual(put, { status: 403, errors: [] }, `#${i}`);
    }
  });
});
