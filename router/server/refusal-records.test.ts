/**
 * Every agent request the router refuses on a face route before routing it (a body it cannot read, a
 * request its face cannot take, a wrong method, a body too large or too slow, too many bodies arriving) is
 * recorded once as `rejected`, through the same path as a refusal in routing: the history, the `request`
 * event, `/metrics` and today's counters, with its face, client, session and request id, and never a word of
 * its body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { HistoryEntry, HistoryResponse } from '../api-types.js';
import { ioTurns, within } from '../test-support/deferred.js';
import { httpRequest, parseReply, rawExchange } from '../test-support/http-client.js';
import { parsePrometheus, samplesOf, labelKey } from '../test-support/prometheus-text.js';
import type { RouterHarness } from '../test-support/router-harness.js';
import { withScenario } from '../test-support/scenario.js';
import { json } from '../test-support/upstream-behaviours.js';

const ONE = { providers: { alpha: ['m1'] } };
/** Words of the prompt that must be found nowhere the router records. */
const SECRET = 'PROMPT-WORDS-7f3a';
const userTurn = [{ role: 'user', content: `hi ${SECRET}` }];

interface Refusal {
  what: string;
  path: string;
  face: HistoryEntry['api'];
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
  method?: string;
  /** What the history keeps of the error answer. */
  refusal: HistoryEntry['refusal'];
}

const JSON_TYPE = { 'content-type': 'application/json' };

const REFUSALS: Refusal[] = [
  {
    what: 'invalid JSON',
    refusal: { code: 'invalid_json' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 400,
    body: `{"model": "fcm", "messages": [{"role": "user", "content": "${SECRET}"`,
  },
  {
    what: 'empty messages',
    refusal: { code: 'invalid_request', param: 'messages' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 400,
    body: JSON.stringify({ model: 'fcm', messages: [], metadata: { note: SECRET } }),
  },
  {
    what: 'a wrong content type',
    refusal: { code: 'unsupported_media_type' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 415,
    body: JSON.stringify({ model: 'fcm', messages: userTurn }),
    headers: { 'content-type': 'text/plain' },
  },
  {
    what: 'a wrong method',
    refusal: { code: 'method_not_allowed' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 405,
    body: '',
    method: 'GET',
  },
  {
    what: 'nesting too deep',
    refusal: { code: 'invalid_request' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 400,
    body: `{"messages": ${'['.repeat(300)}"${SECRET}"${']'.repeat(300)}}`,
  },
  {
    what: 'a body over 10 MiB',
    refusal: { code: 'request_too_large' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 413,
    body: Buffer.alloc(10 * 1024 * 1024 + 16, 0x20),
  },
  {
    what: 'a body that is not what its coding says',
    refusal: { code: 'invalid_request' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 400,
    body: `not gzip ${SECRET}`,
    headers: { ...JSON_TYPE, 'content-encoding': 'gzip' },
  },
  {
    what: 'a coding the router does not read',
    refusal: { code: 'unsupported_media_type' },
    path: '/v1/chat/completions',
    face: 'chat',
    status: 415,
    body: gzipSync(JSON.stringify({ messages: userTurn })),
    headers: { ...JSON_TYPE, 'content-encoding': 'compress' },
  },
  {
    what: 'a PDF document',
    refusal: { code: 'invalid_request', param: 'messages[0].content[1].source' },
    path: '/v1/messages',
    face: 'messages',
    status: 400,
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: SECRET },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
          ],
        },
      ],
    }),
  },
  {
    what: 'previous_response_id',
    refusal: { code: 'invalid_request', param: 'previous_response_id' },
    path: '/v1/responses',
    face: 'responses',
    status: 400,
    body: JSON.stringify({ model: 'fcm', input: SECRET, previous_response_id: 'resp_123' }),
  },
];

/** `fcm_router_requests_total` by its labels. */
async function requestCounts(router: RouterHarness): Promise<Map<string, number>> {
  const reply = await router.get('/metrics');
  return samplesOf(parsePrometheus(reply.text), 'fcm_router_requests_total');
}

function rejectedOn(counts: Map<string, number>, face: string): number {
  return counts.get(labelKey({ outcome: 'rejected', face, source: 'agent' })) ?? 0;
}

test('each refusal before routing is recorded once as rejected: history, event, metrics, today; no body in any', async () => {
  await withScenario(ONE, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const events: HistoryEntry[] = [];
    router.router.on('request', (event) => events.push(event.entry));
    for (const [i, refusal] of REFUSALS.entries()) {
      const before = await requestCounts(router);
      const requestId = `refused-${i}`;
      const reply = await httpRequest(`${router.url}${refusal.path}`, {
        method: refusal.method ?? 'POST',
        headers: {
          ...(refusal.headers ?? JSON_TYPE),
          'user-agent': 'opencode/1.2.3 (linux)',
          'x-session-id': 'session-of-the-agent',
          'x-request-id': requestId,
        },
        body: refusal.method === 'GET' ? undefined : refusal.body,
      });
      assert.equal(reply.status, refusal.status, `${refusal.what}: ${reply.text}`);
      assert.equal(reply.headers['x-fcm-v2-decision'], 'none!rejected||skips=0', refusal.what);
      const entries = router.router.history(500).entries.filter((entry) => entry.requestId === requestId);
      assert.equal(entries.length, 1, `${refusal.what}: one history entry`);
      const entry = entries[0] as HistoryEntry;
      assert.equal(entry.outcome, 'rejected', refusal.what);
      assert.equal(entry.clientStatus, refusal.status, refusal.what);
      assert.equal(entry.api, refusal.face, refusal.what);
      assert.equal(entry.client, 'opencode/1.2.3', refusal.what);
      assert.equal(entry.source, 'agent', refusal.what);
      assert.match(entry.session ?? '', /^[0-9a-f]{16}$/, `${refusal.what}: the session's hash`);
      assert.deepEqual(entry.attempts, [], refusal.what);
      assert.deepEqual(entry.refusal, refusal.refusal, `${refusal.what}: the error's code and field`);
      assert.equal(
        events.filter((event) => event.requestId === requestId).length,
        1,
        `${refusal.what}: event`,
      );
      const after = await requestCounts(router);
      assert.equal(
        rejectedOn(after, refusal.face) - rejectedOn(before, refusal.face),
        1,
        `${refusal.what}: counted once in /metrics`,
      );
    }
    const history = parseReply<HistoryResponse>(await router.get('/api/history?limit=500'));
    assert.equal(history.entries.length, REFUSALS.length);
    assert.equal(history.stats.today.refused, REFUSALS.length);
    assert.equal(history.stats.rejected, REFUSALS.length);
    assert.ok(!JSON.stringify(history).includes(SECRET), 'no word of a refused body in the history');
    assert.ok(!JSON.stringify(events).includes(SECRET), 'nor in the events');
    assert.ok(!router.logText().includes(SECRET), 'nor in the log');
    assert.match(
      router.logText(),
      /refused-8 rejected 400 .* invalid_request@messages\[0\]\.content\[1\]\.source/,
    );
    assert.equal(upstream.calls.length, 0);
  });
});

test('a body cut at its deadline (408) and a body refused while too many arrive (503) are recorded as rejected', async () => {
  const options = { ...ONE, server: { requestBodyTimeoutMs: 500, maxPendingBodies: 1 } };
  await withScenario(options, async ({ router }) => {
    const { host } = new URL(router.url);
    const { closed, socket } = rawExchange(
      router.url,
      `POST /v1/messages HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\n` +
        `x-request-id: slow-one\r\nuser-agent: claude-cli/2.0.1\r\ncontent-length: 100\r\n\r\n{"x": "${SECRET}`,
    );
    try {
      // Its body still arriving holds the one place: the next request with a body is turned away.
      let busy = null;
      for (let i = 0; i < 50 && busy === null; i++) {
        const reply = await httpRequest(`${router.url}/v1/responses`, {
          method: 'POST',
          headers: { ...JSON_TYPE, 'x-request-id': 'busy-one' },
          body: JSON.stringify({ model: 'fcm', input: SECRET }),
        });
        if (reply.status === 503) busy = reply;
        else await ioTurns();
      }
      assert.ok(busy, 'a second body was turned away');
      const ended = router.nextEntry();
      router.clock.advance(500);
      const received = await within(closed, 'the router to cut the slow body');
      assert.match(received, /^HTTP\/1\.1 408 /);
      const late = await ended;
      assert.equal(late.requestId, 'slow-one');
      assert.equal(late.outcome, 'rejected');
      assert.equal(late.clientStatus, 408);
      assert.equal(late.api, 'messages');
      assert.equal(late.client, 'claude-cli/2.0.1');
      assert.deepEqual(late.refusal, { code: 'request_timeout' });
    } finally {
      socket.destroy();
    }
    const entries = router.router.history(10).entries;
    const busyEntry = entries.find((entry) => entry.requestId === 'busy-one');
    assert.equal(busyEntry?.outcome, 'rejected');
    assert.equal(busyEntry?.clientStatus, 503);
    assert.equal(busyEntry?.api, 'responses');
    assert.equal(busyEntry?.refusal?.code, 'server_busy');
    assert.equal(entries.length, 2);
    assert.ok(!JSON.stringify(entries).includes(SECRET));
  });
});
