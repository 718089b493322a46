import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, within } from '../test-support/deferred.js';
import { sseText } from '../test-support/http-client.js';
import { after, hang, json, sse, sseContent } from '../test-support/upstream-behaviours.js';
import { contentFrame, roleFrame } from '../test-support/upstream-frames.js';
import { withScenario } from '../test-support/scenario.js';
import { TestClock } from '../test-support/test-clock.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
const THREE = { providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] } };
/** Hedge after 300 ms; the request timeout is far away, so only a hedge can answer early. */
const HEDGED = { hedgeAfterMs: 300, requestTimeoutMs: 5000 };

test('a hanging model is hedged: the second model answers, the first is stopped without blame', async () => {
  await withScenario({ ...TWO, failover: HEDGED }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', json('from beta'));
    const entry = router.nextEntry();
    const started = Date.now();
    const reply = await router.chat();
    const elapsed = Date.now() - started;
    assert.equal(reply.status, 200);
    assert.ok(elapsed >= 290 && elapsed < 3000, `answered after ${elapsed} ms`);
    assert.match(reply.text, /from beta/);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:hedge_lost->beta/m2:200|skips=0',
    );
    assert.equal(reply.headers['x-fcm-v2-attempts'], '2');
    const { attempts, servedModel } = await entry;
    assert.equal(servedModel, 'beta/m2');
    assert.deepEqual(
      attempts.map(({ model, kind, role }) => ({ model, kind, role })),
      [
        { model: 'alpha/m1', kind: 'hedge_lost', role: 'normal' },
        { model: 'beta/m2', kind: null, role: 'hedge' },
      ],
    );
    const hung = upstream.callsTo('alpha/m1')[0];
    await within(hung?.closed ?? Promise.resolve(), 5000, 'the hedged upstream call to close');
    assert.equal(hung?.closedEarly, true, 'the loser’s upstream call was cut');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('a hedge lost to the first model is stopped, without blame, and its stream never reaches the client', async () => {
  await withScenario({ ...TWO, failover: HEDGED }, async ({ router, upstream }) => {
    const gate = deferred();
    upstream
      .always('alpha/m1', after(gate.promise, sseContent(['from ', 'alpha'])))
      .always('beta/m2', sse([roleFrame()], { then: 'stall' }));
    const entry = router.nextEntry();
    const reply = router.chat({ stream: true });
    const hedge = await upstream.nextCall('beta/m2');
    gate.resolve();
    const { text, headers } = await reply;
    assert.equal(sseText(text), 'from alpha');
    assert.equal(headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200->beta/m2:hedge_lost|skips=0');
    await within(hedge.closed, 5000, 'the hedge’s upstream call to close');
    assert.equal(hedge.closedEarly, true);
    const { attempts } = await entry;
    assert.deepEqual(
      attempts.map(({ model, kind, role }) => ({ model, kind, role })),
      [
        { model: 'alpha/m1', kind: null, role: 'normal' },
        { model: 'beta/m2', kind: 'hedge_lost', role: 'hedge' },
      ],
    );
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('no hedge once the answer is committed: a stream that showed content in time runs on alone', async () => {
  await withScenario({ ...TWO, failover: HEDGED }, async ({ router, upstream }) => {
    // Content at once, then a pause well past the hedge delay before the rest.
    const pause = new Promise<void>((resolve) => setTimeout(resolve, 900));
    upstream
      .always('alpha/m1', sse([roleFrame(), contentFrame('one '), pause, contentFrame('two')]))
      .always('beta/m2', json('never'));
    const started = Date.now();
    const reply = await router.chat({ stream: true });
    assert.ok(Date.now() - started > 600, 'the stream ran well past the hedge delay');
    assert.equal(sseText(reply.text), 'one two');
    assert.equal(reply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

test('at most one hedge per request: after a race both sides lost on their own, the chain goes on plainly', async () => {
  const failover = { hedgeAfterMs: 300, requestTimeoutMs: 1500 };
  await withScenario({ ...THREE, failover }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', hang()).always('gamma/m3', json('from gamma'));
    const entry = router.nextEntry();
    const reply = await router.chat();
    assert.equal(reply.status, 200);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'gamma/m3!served|alpha/m1:timeout->beta/m2:timeout->gamma/m3:200|skips=0',
    );
    const { attempts } = await entry;
    assert.deepEqual(
      attempts.map(({ role }) => role),
      ['normal', 'hedge', 'normal'],
      'the third model had its plain turn, not a second hedge',
    );
    assert.equal(upstream.callsTo('gamma/m3').length, 1);
    // Both failed on their own before anything committed: each takes its damage.
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
    assert.equal(router.model('beta/m2').consecutiveFailures, 1);
  });
});

test('a hedge counts toward maxAttempts', async () => {
  const failover = { ...HEDGED, requestTimeoutMs: 1000, maxAttempts: 1 };
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', json('never'));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:timeout|skips=0');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

test('both sides of a race stay inside the request’s budget, and neither is blamed for it', async () => {
  const failover = { ...HEDGED, totalBudgetMs: 900 };
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', hang());
    const started = Date.now();
    const reply = await router.chat();
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 850 && elapsed < 3000, `cut after ${elapsed} ms`);
    assert.equal(reply.status, 504);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'none!all_failed|alpha/m1:budget_exhausted->beta/m2:budget_exhausted|skips=0',
    );
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('no hedge starts once the budget is spent', async () => {
  const failover = { hedgeAfterMs: 1000, requestTimeoutMs: 5000, totalBudgetMs: 600 };
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', json('never'));
    const reply = await router.chat();
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:budget_exhausted|skips=0');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

/**
 * `auto` delays are seconds long: these tests run on a frozen clock and mock timers, so the router's deadlines
 * fire exactly when the test moves time, and each attempt's latency on the trace is the time the test set.
 */
const AUTO = { hedgeAfterMs: 'auto' as const, requestTimeoutMs: 4000 };

/** Moves the frozen clock and the mocked timers together. */
function elapse(t: TestContext, clock: TestClock, ms: number): void {
  clock.advance(ms);
  t.mock.timers.tick(ms);
}

test('auto without a latency figure for the model means no hedge', async (t) => {
  const clock = new TestClock({ frozen: true });
  await withScenario({ ...TWO, failover: AUTO, clock }, async ({ router, upstream }) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    upstream.always('alpha/m1', hang()).always('beta/m2', json('from beta'));
    const entry = router.nextEntry();
    const called = upstream.nextCall('alpha/m1');
    const reply = router.chat();
    await called;
    elapse(t, clock, 3999);
    elapse(t, clock, 1);
    assert.equal(
      (await reply).headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:timeout->beta/m2:200|skips=0',
    );
    assert.deepEqual(
      (await entry).attempts.map(({ role, latencyMs }) => ({ role, latencyMs })),
      [
        { role: 'normal', latencyMs: 4000 },
        { role: 'normal', latencyMs: 0 },
      ],
      'alpha ran to its timeout alone',
    );
  });
});

test('auto hedges after 2 s for a model whose p95 time to first byte is short', async (t) => {
  const clock = new TestClock({ frozen: true });
  await withScenario({ ...TWO, failover: AUTO, clock }, async ({ router, upstream }) => {
    // Before the first request: the router's deadline timer must be a mocked one from the start.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const gate = deferred();
    upstream.script('alpha/m1', json('fast once')).always('alpha/m1', hang());
    upstream.always('beta/m2', after(gate.promise, json('b')));
    assert.equal((await router.chat()).headers['x-fcm-v2-model'], 'alpha/m1');
    assert.equal(router.model('alpha/m1').latency.ttfbP95Ms, 0, 'a p95 far below the 2 s floor');
    const entry = router.nextEntry();
    const called = upstream.nextCall('alpha/m1');
    const reply = router.chat();
    await called;
    const hedged = upstream.nextCall('beta/m2');
    elapse(t, clock, 1999);
    elapse(t, clock, 1);
    await hedged;
    clock.advance(500);
    gate.resolve();
    assert.equal(
      (await reply).headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:hedge_lost->beta/m2:200|skips=0',
    );
    assert.deepEqual(
      (await entry).attempts.map(({ role, latencyMs }) => ({ role, latencyMs })),
      [
        { role: 'normal', latencyMs: 2500 },
        { role: 'hedge', latencyMs: 500 },
      ],
      'the hedge started 2000 ms into the request, on the clock',
    );
  });
});
