import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import {
  empty200,
  emptyStream,
  json,
  jsonBody,
  sseContent,
  status,
} from '../test-support/upstream-behaviours.js';
import { completion } from '../test-support/upstream-frames.js';
import { parseReply, type HttpReply } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };

interface ErrorBody {
  error: { message: string; type: string; code: string };
}

function assertDecisionHeaders(
  headers: IncomingHttpHeaders,
  decision: string,
  model: string,
  attempts: number,
): void {
  assert.ok(headers['x-request-id'], 'x-request-id');
  assert.equal(headers['x-fcm-v2-decision'], decision);
  assert.equal(headers['x-fcm-v2-model'], model);
  assert.equal(headers['x-fcm-v2-attempts'], String(attempts));
}

test('every chat answer carries the decision headers: served, failed, streamed or not', async () => {
  // A high threshold keeps alpha CLOSED (first in line) through its failures.
  await withScenario({ ...TWO, breaker: { failureThreshold: 10 } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(503), status(503), emptyStream(), status(500));
    upstream.script('beta/m2', json('ok'), sseContent(['ok']), status(502), empty200());

    const served = await router.chat();
    assertDecisionHeaders(served.headers, 'beta/m2!served|alpha/m1:503->beta/m2:200|skips=0', 'beta/m2', 2);

    const streamed = await router.chat({ stream: true });
    assertDecisionHeaders(streamed.headers, 'beta/m2!served|alpha/m1:503->beta/m2:200|skips=0', 'beta/m2', 2);

    const failedStream = await router.chat({ stream: true });
    assert.equal(failedStream.status, 503);
    assert.match(String(failedStream.headers['content-type']), /application\/json/);
    assertDecisionHeaders(
      failedStream.headers,
      'none!all_failed|alpha/m1:empty_stream->beta/m2:502|skips=0',
      'beta/m2',
      2,
    );

    const failed = await router.chat();
    assert.equal(failed.status, 503);
    assertDecisionHeaders(
      failed.headers,
      'none!all_failed|alpha/m1:500->beta/m2:empty_choices|skips=0',
      'beta/m2',
      2,
    );
    assert.ok(Number(failed.headers['retry-after']) >= 1);
    const body = parseReply<ErrorBody>(failed);
    assert.equal(body.error.code, 'all_models_failed');
    assert.equal(typeof body.error.type, 'string');
  });
});

/** The first choice's text of a completion reply. */
function contentOf(reply: HttpReply): string | undefined {
  return parseReply<{ choices: { message: { content: string } }[] }>(reply).choices[0]?.message.content;
}

test('a JSON answer is served alike whether it came at once, with a status other than 200, or too large to come at once', async () => {
  await withScenario({ ...TWO, breaker: { failureThreshold: 10 } }, async ({ router, upstream }) => {
    const large = 'x'.repeat(300_000);
    upstream.script('alpha/m1', status(503), status(503), status(503));
    upstream.script('beta/m2', json('ok'), jsonBody(completion('created'), 201), jsonBody(completion(large)));

    const atOnce = await router.chat();
    assert.equal(atOnce.status, 200);
    assertDecisionHeaders(atOnce.headers, 'beta/m2!served|alpha/m1:503->beta/m2:200|skips=0', 'beta/m2', 2);
    assert.equal(contentOf(atOnce), 'ok');

    const created = await router.chat();
    assert.equal(created.status, 200);
    assertDecisionHeaders(created.headers, 'beta/m2!served|alpha/m1:503->beta/m2:201|skips=0', 'beta/m2', 2);
    assert.equal(contentOf(created), 'created');

    const big = await router.chat();
    assert.equal(big.status, 200);
    assertDecisionHeaders(big.headers, 'beta/m2!served|alpha/m1:503->beta/m2:200|skips=0', 'beta/m2', 2);
    assert.equal(contentOf(big), large);
    assert.equal(Number(big.headers['content-length']), Buffer.byteLength(big.text));
  });
});

test('x-request-id echoes a sane client id and replaces a long one', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('ok'));
    const echoed = await router.chat({}, { headers: { 'x-request-id': 'agent-req-42' } });
    assert.equal(echoed.headers['x-request-id'], 'agent-req-42');
    assert.equal(router.lastEntry().requestId, 'agent-req-42');
    assert.equal(upstream.calls[0]?.headers['x-request-id'], 'agent-req-42');
    const replaced = await router.chat({}, { headers: { 'x-request-id': 'x'.repeat(65) } });
    assert.match(String(replaced.headers['x-request-id']), /^req-[0-9a-f-]{36}$/);
  });
});

test('nothing to try: 429 with Retry-After when every candidate is quota-paused', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream
      .script('alpha/m1', status(429, { retryAfter: '120' }))
      .script('beta/m2', status(429, { retryAfter: '300' }));
    const first = await router.chat();
    assert.equal(first.status, 429);
    assert.equal(parseReply<ErrorBody>(first).error.code, 'rate_limit_exceeded');

    const second = await router.chat();
    assert.equal(second.status, 429);
    assertDecisionHeaders(second.headers, 'none!no_candidates||skips=2', 'none', 0);
    const retryAfter = Number(second.headers['retry-after']);
    assert.ok(retryAfter >= 118 && retryAfter <= 120, `Retry-After ${retryAfter} is the soonest pause end`);
    assert.equal(upstream.calls.length, 2);
    assert.deepEqual(
      router.lastEntry().skipped.map((skip) => skip.reason),
      ['quota_paused', 'quota_paused'],
    );
  });
});

test('nothing to try: 401 when every candidate’s key is invalid', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(401)).script('beta/m2', status(403));
    const first = await router.chat();
    assert.equal(first.status, 401);
    assert.equal(parseReply<ErrorBody>(first).error.code, 'invalid_api_key');
    const second = await router.chat();
    assert.equal(second.status, 401);
    assertDecisionHeaders(second.headers, 'none!no_candidates||skips=2', 'none', 0);
    assert.equal(second.headers['retry-after'], undefined);
    assert.equal(upstream.calls.length, 2);
  });
});

test('nothing to try for mixed reasons: 503 with Retry-After', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(402)).script('beta/m2', status(429, { retryAfter: '90' }));
    await router.chat();
    const reply = await router.chat();
    assert.equal(reply.status, 503);
    assertDecisionHeaders(reply.headers, 'none!no_candidates||skips=2', 'none', 0);
    const retryAfter = Number(reply.headers['retry-after']);
    assert.ok(retryAfter >= 88 && retryAfter <= 90, `Retry-After ${retryAfter}`);
    assert.equal(parseReply<ErrorBody>(reply).error.code, 'all_models_unavailable');
  });
});
