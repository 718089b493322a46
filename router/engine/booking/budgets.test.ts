import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, within } from '../../test-support/deferred.js';
import { after, hang, json, sse, status } from '../../test-support/upstream-behaviours.js';
import { contentFrame, roleFrame } from '../../test-support/upstream-frames.js';
import { sseData, sseText } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';

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
    const entry = router.nextEntry();
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(600);
    const reply = await pending;
    assert.equal((await entry).wallMs, 600, 'cut when the budget ran out, on the router’s clock');
    assert.equal(reply.status, 504);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:budget_exhausted|skips=0');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(upstream.callsTo('beta/m2').length, 0, 'no attempt starts after the deadline');
    const call = upstream.callsTo('alpha/m1')[0];
    await within(call?.closed ?? Promise.resolve(), 'the upstream socket to close');
    assert.equal(call?.closedEarly, true, 'the upstream call was aborted');
  });
});

test('the budget is shared: a later attempt only gets the time that is left', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 1000, requestTimeoutMs: 5000 } };
  await withScenario(options, async ({ router, upstream }) => {
    const slow = deferred();
    upstream.always('alpha/m1', after(slow.promise, status(500)));
    upstream.always('beta/m2', hang());
    const entry = router.nextEntry();
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(600);
    slow.resolve();
    await upstream.nextCall('beta/m2');
    router.clock.advance(400);
    const reply = await pending;
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'none!all_failed|alpha/m1:500->beta/m2:budget_exhausted|skips=0',
    );
    const { wallMs, attempts } = await entry;
    assert.equal(wallMs, 1000);
    assert.deepEqual(
      attempts.map((attempt) => attempt.latencyMs),
      [600, 400],
      'beta had the 400 ms left of the budget, not its 5 s request timeout',
    );
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('after commit only streamIdleTimeoutMs applies: a long healthy stream outlives totalBudgetMs', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 500, streamIdleTimeoutMs: 1000 } };
  await withScenario(options, async ({ router, upstream }) => {
    const pieces = Array.from({ length: 8 }, (_, i) => `part${i} `);
    const gates = pieces.map(() => deferred());
    const frames = pieces.flatMap((piece, i) => [
      gates[i]?.promise ?? Promise.resolve(),
      contentFrame(piece),
    ]);
    upstream.script('alpha/m1', sse([roleFrame(), ...frames]));
    const reply = router.readChat({ stream: true });
    await upstream.nextCall('alpha/m1');
    // A piece every 90 ms on the router's clock: 720 ms in all, past the 500 ms budget.
    for (const [i, piece] of pieces.entries()) {
      router.clock.advance(90);
      gates[i]?.resolve();
      await reply.received(piece);
    }
    const { text } = await reply.done;
    assert.equal(sseText(text), pieces.join(''));
    assert.equal(sseData(text).at(-1), '[DONE]');
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'served');
    assert.equal(entry.wallMs, 720, 'the stream ran past the budget');
  });
});

test('the budget also bounds the held part of a stream that never shows content', async () => {
  const options = { ...THREE, failover: { totalBudgetMs: 600, streamIdleTimeoutMs: 5000 } };
  await withScenario(options, async ({ router, upstream }) => {
    // A keep-alive every 100 ms on the router's clock, and never any content.
    const gates = Array.from({ length: 5 }, () => deferred());
    const keepAlives = gates.flatMap((gate) => [gate.promise, ': keep-alive\n\n']);
    upstream.always('alpha/m1', sse([roleFrame(), ...keepAlives], { then: 'stall' }));
    const entry = router.nextEntry();
    const pending = router.chat({ stream: true });
    await upstream.nextCall('alpha/m1');
    for (const gate of gates) {
      router.clock.advance(100);
      gate.resolve();
    }
    router.clock.advance(100);
    const reply = await pending;
    assert.equal((await entry).wallMs, 600);
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
