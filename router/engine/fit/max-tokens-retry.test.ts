import { test } from 'node:test';
import assert from 'node:assert/strict';
import { json, status } from '../../test-support/upstream-behaviours.js';
import { withScenario } from '../../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };

test('a model that refuses a large max_tokens gets one more try without it; the trace says so', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(400), json('short answer'));
    const reply = await router.chat({ max_tokens: 32_000 });
    assert.equal(reply.status, 200);
    assert.match(reply.text, /short answer/);
    const [refused, retried] = upstream.callsTo('alpha/m1');
    assert.equal(refused?.body?.max_tokens, 32_000);
    assert.equal(
      retried?.body !== null && retried?.body !== undefined && 'max_tokens' in retried.body,
      false,
    );
    const entry = router.lastEntry();
    assert.deepEqual(
      entry.attempts.map((attempt) => [attempt.model, attempt.status, attempt.note ?? null]),
      [
        ['alpha/m1', 400, null],
        ['alpha/m1', 200, 'max_tokens 32000 dropped (the model refused it)'],
      ],
    );
    assert.equal(upstream.callsTo('beta/m2').length, 0);
    assert.match(reply.headers['x-fcm-v2-decision'] as string, /alpha\/m1:400->alpha\/m1:200/);
  });
});

test('the retry without an output length is an attempt: with maxAttempts 1 the refusal is the answer', async () => {
  await withScenario({ ...TWO, failover: { maxAttempts: 1 } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(400), json('short answer'));
    const reply = await router.chat({ max_tokens: 32_000 });
    assert.equal(reply.status, 400);
    assert.equal(upstream.callsTo('alpha/m1').length, 1);
    assert.equal(router.lastEntry().attempts.length, 1);
  });
});

test('without an output length to drop, a 400 fails over at once, and a second refusal is not retried again', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', status(400), status(400), status(400));
    upstream.script('beta/m2', json('from beta'), json('from beta'));
    await router.chat();
    assert.deepEqual(
      router.lastEntry().attempts.map((attempt) => attempt.model),
      ['alpha/m1', 'beta/m2'],
    );
    // Refusing what beta served sent alpha behind it (`refused-requests.test.ts`): a reset puts it first again.
    assert.equal((await router.api('POST', '/api/models/reset', { model: 'alpha/m1' })).status, 200);
    await router.chat({ max_tokens: 32_000 });
    assert.deepEqual(
      router.lastEntry().attempts.map((attempt) => attempt.model),
      ['alpha/m1', 'alpha/m1', 'beta/m2'],
    );
  });
});

test('a 400 whose words name another cause fails over at once, even with an output length to drop', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const body = { error: { message: "Unsupported parameter: 'tools'", type: 'invalid_request_error' } };
    upstream.script('alpha/m1', status(400, { body }), json('unused'));
    upstream.script('beta/m2', json('from beta'));
    const reply = await router.chat({ max_tokens: 32_000 });
    assert.equal(reply.status, 200);
    assert.match(reply.text, /from beta/);
    assert.deepEqual(
      router.lastEntry().attempts.map((attempt) => [attempt.model, attempt.status]),
      [
        ['alpha/m1', 400],
        ['beta/m2', 200],
      ],
    );
    assert.equal(upstream.callsTo('alpha/m1').length, 1);
  });
});
