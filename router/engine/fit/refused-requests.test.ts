/**
 * A model that refuses (4xx) a request another model then serves, on the real router over fake upstreams:
 * the request was sound, so the refusal is the model's own way with requests like it. The model ranks
 * behind the others for an hour (new conversations do not pay an attempt on it first), its health is
 * untouched, a success or a Reset lifts it, and it survives a restart. A request every model refuses
 * teaches nothing, nor does a 413 (a body limit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REFUSAL_LESSON_MS } from '../../state/fit-book.js';
import { attemptChain } from '../../test-support/face-scenario.js';
import { startHarness } from '../../test-support/router-harness.js';
import { scenarioConfig, withScenario } from '../../test-support/scenario.js';
import { json, status } from '../../test-support/upstream-behaviours.js';

const A = 'a/m';
const B = 'b/m';
const C = 'c/m';
const scenario = { providers: { a: ['m'], b: ['m'], c: ['m'] }, sets: { main: [A, B, C] } };
/** What a strict upstream says of a parameter it does not take. */
const refusal = status(400, {
  body: { error: { message: "Unsupported parameter: 'parallel_tool_calls'", type: 'invalid_request_error' } },
});

test('a model that refused a request another model served ranks behind the others for an hour, unharmed', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(A, refusal).always(B, json('from b')).always(C, json('from c'));
    const refusedAt = router.clock.now();
    assert.equal((await router.chat()).status, 200);
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['a/m:invalid_request', 'b/m:ok']);
    const view = router.model(A);
    assert.equal(view.state, 'CLOSED');
    assert.equal(view.consecutiveFailures, 0, 'a refusal is not a failure of the model');
    assert.equal(view.refusedServedAt, refusedAt);
    assert.deepEqual(
      router.router.state().models.map((model) => model.key),
      [B, C, A],
      'the dashboard shows the order the next request takes',
    );

    assert.equal(router.lastEntry().behind, undefined, 'the first request found nothing to put behind');

    router.clock.advance(REFUSAL_LESSON_MS - 1);
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['b/m:ok']);
    assert.deepEqual(router.lastEntry().behind, [A], 'the trace says which model was asked last');
    assert.equal(upstream.callsTo(A).length, 1, 'the next conversation does not meet the refusal again');

    router.clock.advance(1);
    assert.equal(router.model(A).refusedServedAt, null, 'an hour on, it is asked again');
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['a/m:invalid_request', 'b/m:ok']);
    assert.equal(router.lastEntry().behind, undefined);
  });
});

test('an agent request it serves lifts the lesson; a dashboard test it passes does not', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.script(A, refusal).always(A, json('from a')).always(B, json('from b'));
    await router.chat();
    assert.equal(router.lastEntry().servedModel, B);
    const test = await router.chat({ model: `fcm:@${A}` }, { headers: { 'x-fcm-source': 'test' } });
    assert.equal(test.status, 200);
    assert.notEqual(
      router.model(A).refusedServedAt,
      null,
      'a test’s small request says nothing of an agent’s',
    );
    // Behind B and C, A is tried when both fail.
    upstream.script(B, status(500)).script(C, status(500));
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), [
      'b/m:server_error',
      'c/m:server_error',
      'a/m:ok',
    ]);
    assert.equal(router.model(A).refusedServedAt, null);
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['a/m:ok']);
  });
});

test('a 413 another model served teaches no shape: a body limit speaks of size', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.script(A, status(413, { body: 'Request Entity Too Large' })).always(A, json('from a'));
    upstream.always(B, json('from b'));
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['a/m:invalid_request', 'b/m:ok']);
    assert.equal(router.model(A).refusedServedAt, null);
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['a/m:ok']);
  });
});

test('a request every model refuses is the client’s: it teaches nothing and blames none', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.script(A, refusal).script(B, refusal).script(C, refusal).always(A, json('from a'));
    assert.equal((await router.chat()).status, 400);
    for (const key of [A, B, C]) assert.equal(router.model(key).refusedServedAt, null, key);
    await router.chat();
    assert.deepEqual(attemptChain(router.lastEntry().attempts), ['a/m:ok']);
  });
});

test('a request every model refuses gets the last refusal’s own words; another kind of failure leaves them out', async () => {
  const said = (message: string) =>
    status(400, { body: { error: { message, type: 'invalid_request_error' } } });
  const messageOf = (text: string) => (JSON.parse(text) as { error: { message: string } }).error.message;
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream
      .script(A, said('first words'))
      .script(B, said('last words'))
      .script(C, status(400, { body: '' }));
    const refused = await router.chat();
    assert.equal(refused.status, 400);
    assert.equal(
      messageOf(refused.text),
      'fcm-router: every model tried failed (invalid_request); the last said: last words',
      'the last refusal that gave its reasons',
    );
    upstream.script(A, refusal).script(B, refusal).script(C, status(500));
    assert.equal(
      messageOf((await router.chat()).text),
      'fcm-router: every model tried failed (invalid_request, server_error)',
    );
  });
});

test('the lesson survives a restart, and Reset forgets it', async () => {
  await withScenario(scenario, async ({ router, upstream }) => {
    upstream.always(A, refusal).always(B, json('from b'));
    await router.chat();
    await router.stop();
    const again = await startHarness({ config: scenarioConfig(upstream, scenario), dir: router.dir });
    try {
      await again.chat();
      assert.deepEqual(attemptChain(again.lastEntry().attempts), ['b/m:ok'], 'still behind after a restart');
      assert.equal((await again.api('POST', '/api/models/reset', { model: A })).status, 200);
      assert.equal(again.model(A).refusedServedAt, null);
      await again.chat();
      assert.deepEqual(attemptChain(again.lastEntry().attempts), ['a/m:invalid_request', 'b/m:ok']);
    } finally {
      await again.stop();
    }
  });
});
