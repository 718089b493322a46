import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, ioTurns, within } from '../../test-support/deferred.js';
import { sseText } from '../../test-support/http-client.js';
import { after, hang, json, sse, sseContent } from '../../test-support/upstream-behaviours.js';
import { contentFrame, finishFrame, roleFrame, toolCallFrame } from '../../test-support/upstream-frames.js';
import { withScenario } from '../../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
const THREE = { providers: { alpha: ['m1'], beta: ['m2'], gamma: ['m3'] } };
/** Hedge after 300 ms; the request timeout is far away, so only a hedge can answer early. */
const HEDGED = { hedgeAfterMs: 300, requestTimeoutMs: 5000 };

test('a hanging model is hedged: the second model answers, the first is stopped without blame', async () => {
  await withScenario({ ...TWO, failover: HEDGED }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', json('from beta'));
    const entry = router.nextEntry();
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(300);
    const reply = await pending;
    assert.equal(reply.status, 200);
    assert.match(reply.text, /from beta/);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:hedge_lost->beta/m2:200|skips=0',
    );
    assert.equal(reply.headers['x-fcm-v2-attempts'], '2');
    const { attempts, servedModel, wallMs } = await entry;
    assert.equal(servedModel, 'beta/m2');
    assert.equal(wallMs, 300, 'the hedge answered as it started, 300 ms in');
    assert.deepEqual(
      attempts.map(({ model, kind, role, latencyMs }) => ({ model, kind, role, latencyMs })),
      [
        { model: 'alpha/m1', kind: 'hedge_lost', role: 'normal', latencyMs: 300 },
        { model: 'beta/m2', kind: null, role: 'hedge', latencyMs: 0 },
      ],
    );
    const hung = upstream.callsTo('alpha/m1')[0];
    await within(hung?.closed ?? Promise.resolve(), 'the hedged upstream call to close');
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
    await upstream.nextCall('alpha/m1');
    router.clock.advance(300);
    const hedge = await upstream.nextCall('beta/m2');
    gate.resolve();
    const { text, headers } = await reply;
    assert.equal(sseText(text), 'from alpha');
    assert.equal(headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200->beta/m2:hedge_lost|skips=0');
    await within(hedge.closed, 'the hedge’s upstream call to close');
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
    const pause = deferred();
    upstream
      .always('alpha/m1', sse([roleFrame(), contentFrame('one '), pause.promise, contentFrame('two')]))
      .always('beta/m2', json('never'));
    const reading = router.readChat({ stream: true });
    await reading.received('one ');
    router.clock.advance(900);
    pause.resolve();
    const reply = await reading.done;
    assert.equal(router.lastEntry().wallMs, 900, 'the stream ran well past the hedge delay');
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
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(300);
    await upstream.nextCall('beta/m2');
    router.clock.advance(1200); // alpha's request timeout, 1500 ms after it started
    router.clock.advance(300); // beta's
    const reply = await pending;
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
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(1000);
    const reply = await pending;
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:timeout|skips=0');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

test('both sides of a race stay inside the request’s budget, and neither is blamed for it', async () => {
  const failover = { ...HEDGED, totalBudgetMs: 900 };
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', hang());
    const entry = router.nextEntry();
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(300);
    await upstream.nextCall('beta/m2');
    router.clock.advance(600);
    const reply = await pending;
    assert.equal((await entry).wallMs, 900, 'both cut when the budget ran out');
    assert.equal(reply.status, 504);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'none!all_failed|alpha/m1:budget_exhausted->beta/m2:budget_exhausted|skips=0',
    );
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('an attempt whose stream passed the gate holding a tool call outlives the budget; its rival does not', async () => {
  const failover = {
    ...HEDGED,
    requestTimeoutMs: 12_000,
    streamIdleTimeoutMs: 12_000,
    totalBudgetMs: 10_000,
  };
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    const rest = deferred();
    const start = toolCallFrame(0, '{"path":', { id: 'call_a', name: 'Read' });
    const frames = [roleFrame(), start, rest.promise, toolCallFrame(0, '"a"}'), finishFrame('tool_calls')];
    upstream.always('alpha/m1', sse(frames)).always('beta/m2', hang());
    const tools = [{ type: 'function', function: { name: 'Read' } }];
    const reply = router.chat({ stream: true, tools });
    await upstream.nextCall('alpha/m1');
    await ioTurns(); // alpha's first piece passed the gate: held, nothing committed
    router.clock.advance(300);
    await upstream.nextCall('beta/m2');
    router.clock.advance(10_700); // past the budget: only the hedge, which has shown nothing, is cut
    rest.resolve();
    const { headers } = await within(reply, 'the answer');
    assert.equal(
      headers['x-fcm-v2-decision'],
      'alpha/m1!served|alpha/m1:200->beta/m2:budget_exhausted|skips=0',
    );
    assert.equal(router.model('beta/m2').consecutiveFailures, 0);
  });
});

test('no hedge starts once the budget is spent', async () => {
  const failover = { hedgeAfterMs: 1000, requestTimeoutMs: 5000, totalBudgetMs: 600 };
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', hang()).always('beta/m2', json('never'));
    const pending = router.chat();
    await upstream.nextCall('alpha/m1');
    router.clock.advance(600);
    const reply = await pending;
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:budget_exhausted|skips=0');
    router.clock.advance(400); // the hedge's time comes after the request ended
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

/**
 * `auto` delays are seconds long; the router's deadlines fire exactly when the test moves its clock, and each
 * attempt's latency on the trace is the time the test set.
 */
const AUTO = { hedgeAfterMs: 'auto' as const, requestTimeoutMs: 4000 };

test('auto without a latency figure for the model means no hedge', async () => {
  await withScenario({ ...TWO, failover: AUTO }, async ({ router, upstream }) => {
    const { clock } = router;
    upstream.always('alpha/m1', hang()).always('beta/m2', json('from beta'));
    const entry = router.nextEntry();
    const called = upstream.nextCall('alpha/m1');
    const reply = router.chat();
    await called;
    clock.advance(3999);
    clock.advance(1);
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

test('auto hedges after 2 s for a model whose p95 time to first byte is short', async () => {
  await withScenario({ ...TWO, failover: AUTO }, async ({ router, upstream }) => {
    const { clock } = router;
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
    clock.advance(1999);
    clock.advance(1);
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
