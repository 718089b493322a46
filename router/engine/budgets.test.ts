import { test } from 'node:test';
import assert from 'node:assert/strict';
import { within } from '../test-support/deferred.js';
import { delayed, hang, json, sse, status } from '../test-support/upstream-behaviours.js';
import { contentFrame, roleFrame } from '../test-support/upstream-frames.js';
import { sseData, sseText } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';

const THREE = { providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] } };

test('the set’s order is the priority; each named set keeps its own order', async () => {
  const sets = { main: ['gamma/m3', 'alpha/m1', 'beta/m2'], other: ['beta/m2', 'gamma/m3'] };
  await withScenario({ ...THREE, sets }, async ({ router, upstream }) => {
    for (const key of ['alpha/m1', 'beta/m2', 'gamma/m3']) upstream.always(key, json(key));
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'gamma/m3');
    assert.equal((await router.chat({ model: 'fcm:other' })).headers['x-fcm-v2-model'], 'beta/m2');
    upstream.script('gamma/m3', status(500));
    const failover = await router.chat();
    assert.equal(failover.headers['x-fcm-v2-decision'], 'alpha/m1!served|gamma/m3:500->alpha/m1:200|skips=0');
  });
});

test('maxAttempts caps the attempts of one request', async () => {
  await withScenario({ ...THREE, failover: { maxAttempts: 2 } }, async ({ router, upstream }) => {
    for (const key of ['alpha/m1', 'beta/m2', 'gamma/m3']) upstream.always(key, status(500));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:500->beta/m2:500|skips=0');
    assert.equal(upstream.callsTo('gamma/m3').length, 0);
  });
});

test('lastResortModel gets one extra attempt after the chain, beyond maxAttempts', async () => {
  const options = {
    ...THREE,
    sets: { main: ['alpha/m1', 'beta/m2'] },
    failover: { maxAttempts: 1, lastResortModel: 'gamma/m3' },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream
      .always('alpha/m1', status(500))
      .always('beta/m2', json('beta'))
      .always('gamma/m3', json('last resort'));
    const reply = await router.chat();
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'gamma/m3!served|alpha/m1:500->gamma/m3:200|skips=0');
    assert.equal(reply.headers['x-fcm-v2-last-resort'], 'true');
    const entry = router.lastEntry();
    assert.equal(entry.lastResortUsed, true);
    assert.equal(entry.attempts[1]?.role, 'last_resort');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

test('a pinned model gets no last resort', async () => {
  const options = { ...THREE, failover: { lastResortModel: 'gamma/m3' } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(500)).always('gamma/m3', json('last resort'));
    const reply = await router.chat({ model: 'fcm:@alpha/m1' });
    assert.equal(reply.status, 502);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:500|skips=0');
    assert.equal(upstream.callsTo('gamma/m3').length, 0);
  });
});

test('totalBudgetMs cuts a hanging upstream even when requestTimeoutMs is longer, without blaming it', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 600, requestTimeoutMs: 5000 } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang());
    const started = Date.now();
    const reply = await router.chat();
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 550 && elapsed < 2000, `cut after ${elapsed} ms`);
    assert.equal(reply.status, 504);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:budget_exhausted|skips=0');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(upstream.callsTo('beta/m2').length, 0, 'no attempt starts after the deadline');
    const call = upstream.callsTo('alpha/m1')[0];
    await within(call?.closed ?? Promise.resolve(), 5000, 'the upstream socket to close');
    assert.equal(call?.closedEarly, true, 'the upstream call was aborted');
  });
});

test('the budget is shared: a later attempt only gets the time that is left', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 1000, requestTimeoutMs: 5000 } };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', delayed(600, status(500)));
    upstream.always('beta/m2', hang());
    const started = Date.now();
    const reply = await router.chat();
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 950 && elapsed < 2000, `whole request took ${elapsed} ms`);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'none!all_failed|alpha/m1:500->beta/m2:budget_exhausted|skips=0',
    );
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('after commit only streamIdleTimeoutMs applies: a long healthy stream outlives totalBudgetMs', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 500, streamIdleTimeoutMs: 1000 } };
  await withScenario(options, async ({ router, upstream }) => {
    const pieces = Array.from({ length: 8 }, (_, i) => `part${i} `);
    upstream.script('alpha/m1', sse([roleFrame(), ...pieces.map(contentFrame)], { delayMs: 90 }));
    const started = Date.now();
    const reply = await router.chat({ stream: true });
    assert.ok(Date.now() - started > 600, 'the stream ran past the budget');
    assert.equal(sseText(reply.text), pieces.join(''));
    assert.equal(sseData(reply.text).at(-1), '[DONE]');
    assert.equal(router.lastEntry().outcome, 'served');
  });
});

test('the budget also bounds the held part of a stream that never shows content', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 600, streamIdleTimeoutMs: 5000 } };
  await withScenario(options, async ({ router, upstream }) => {
    const keepAlives = Array.from({ length: 50 }, () => ': keep-alive\n\n');
    upstream.always('alpha/m1', sse([roleFrame(), ...keepAlives], { delayMs: 100 }));
    const started = Date.now();
    const reply = await router.chat({ stream: true });
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 2000, `cut after ${elapsed} ms`);
    assert.equal(reply.status, 504);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:budget_exhausted|skips=0');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
  });
});

test('the last resort is skipped as auth_error while its provider’s key is refused, in this and later requests', async () => {
  const options = {
    providers: { alpha: ['m1', 'm2'], beta: ['m3'] },
    sets: { main: ['alpha/m1', 'beta/m3'] },
    failover: { lastResortModel: 'alpha/m2' },
  };
  await withScenario(options, async ({ router, upstream }) => {
    upstream.always('alpha/m1', status(401)).always('alpha/m2', json('never')).always('beta/m3', status(500));
    const first = await router.chat();
    assert.equal(first.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:401->beta/m3:500|skips=1');
    assert.deepEqual(router.lastEntry().skipped, [{ model: 'alpha/m2', reason: 'auth_error' }]);
    const second = await router.chat();
    assert.equal(second.headers['x-fcm-v2-decision'], 'none!all_failed|beta/m3:500|skips=2');
    assert.equal(upstream.callsTo('alpha/m2').length, 0);
    assert.equal(router.lastEntry().lastResortUsed, false);
  });
});
