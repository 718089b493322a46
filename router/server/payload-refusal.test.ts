/**
 * A bad request reported inside a 200: an error object whose `code` is a 4xx, as a whole JSON answer or
 * as a stream's first frame. It means what that status would mean as an HTTP answer: a 400 is the
 * client's request at fault (no breaker damage, and the upstream's words reach the agent when every model
 * refuses), on each face.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attemptChain } from '../test-support/face-scenario.js';
import { FACES, askFace } from '../test-support/face-answers.js';
import { withScenario } from '../test-support/scenario.js';
import { byStreaming, json, jsonBody, sse, type Behaviour } from '../test-support/upstream-behaviours.js';
import { roleFrame } from '../test-support/upstream-frames.js';

const MODELS = ['a/m', 'b/m', 'c/m'];
const scenario = { providers: { a: ['m'], b: ['m'], c: ['m'] } };
const WORDS = "Invalid value for 'messages[0].role'";

/** A 200 whose error object carries `code` (a JSON answer, or a stream's first frame). */
function refusedIn200(code: number | string): Behaviour {
  const error = { error: { code, message: WORDS } };
  return byStreaming(sse([roleFrame(), error], { done: false }), jsonBody(error));
}

/** The error message of an error answer in any face's shape. */
function messageOf(text: string): string {
  const body = JSON.parse(text) as { error?: { message?: unknown } };
  return typeof body.error?.message === 'string' ? body.error.message : '';
}

for (const driver of FACES) {
  for (const stream of [false, true]) {
    test(`${driver.face}${stream ? ', streamed' : ''}: a 400 in a 200 is the request's fault, and the agent is told why`, async () => {
      await withScenario(scenario, async ({ router, upstream }) => {
        for (const model of MODELS) upstream.always(model, refusedIn200(400));
        for (let request = 0; request < 4; request++) {
          const reply = await askFace(router.url, driver, driver.body(stream, 'hello'));
          assert.equal(reply.status, 400, reply.text);
          assert.match(messageOf(reply.text), /the last said: Invalid value for 'messages\[0\]\.role'/);
          assert.equal(router.lastEntry().outcome, 'all_failed');
        }
        for (const model of MODELS) {
          const view = router.model(model);
          assert.equal(view.state, 'CLOSED', model);
          assert.equal(view.consecutiveFailures, 0, model);
        }
      });
    });
  }
}

test('a code given as a numeric string reads as the number; a 5xx code and no code stay error payloads', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    // Streamed to a request for JSON: read whole, its first frame is the refusal.
    upstream.script('a/m', sse([roleFrame(), { error: { code: '422', message: WORDS } }], { done: false }));
    upstream.script('b/m', refusedIn200(503));
    upstream.script('c/m', jsonBody({ error: { message: 'no code here' } }));
    upstream.always('a/m', json('fine'));
    assert.equal((await router.chat()).status, 503, 'failures of different kinds');
    assert.deepEqual(attemptChain(router.lastEntry().attempts), [
      'a/m:invalid_request',
      'b/m:error_payload',
      'c/m:error_payload',
    ]);
    assert.equal(router.model('a/m').consecutiveFailures, 0);
    assert.equal(router.model('b/m').consecutiveFailures, 1);
    assert.equal(router.model('c/m').consecutiveFailures, 1);
  });
});

test('a payload code reads its words as the same status would: a 400 naming a bad key blocks the key', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.script(
      'a/m',
      jsonBody({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.' } }),
    );
    upstream.script(
      'b/m',
      jsonBody({ error: { code: 400, message: "This model's maximum context length is 8192 tokens" } }),
    );
    upstream.always('c/m', json('from c'));
    assert.equal((await router.chat()).status, 200);
    assert.deepEqual(attemptChain(router.lastEntry().attempts), [
      'a/m:auth_error',
      'b/m:context_length',
      'c/m:ok',
    ]);
  });
});
