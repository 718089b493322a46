/**
 * Three defects the request path once had, each seen under load: keep-alive comments that hid a stalled
 * stream, an in-flight success that closed a breaker which had just tripped, and a body nested so deep that
 * serialising it failed inside the attempt and was blamed on the upstream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, ioTurns, within } from '../../test-support/deferred.js';
import { httpRequest } from '../../test-support/http-client.js';
import { contentFrame, roleFrame } from '../../test-support/upstream-frames.js';
import {
  after,
  json,
  sse,
  sseContent,
  status,
  type Behaviour,
} from '../../test-support/upstream-behaviours.js';
import { withScenario } from '../../test-support/scenario.js';

/**
 * An SSE stream of `: keepalive` comments, one each time the test calls `next` (which resolves once the
 * router has read it), then content if `thenContent`, else silence until the router gives up.
 */
function keepalives(
  count: number,
  thenContent: boolean,
): { behaviour: Behaviour; next: () => Promise<void> } {
  const steps = Array.from({ length: count }, () => ({ gate: deferred(), sent: deferred() }));
  const frames = steps.flatMap(({ gate, sent }) => [gate.promise, ': keepalive\n\n', () => sent.resolve()]);
  const content = thenContent ? [roleFrame(), contentFrame('after the queue')] : [];
  let taken = 0;
  return {
    behaviour: sse([...frames, ...content], thenContent ? {} : { then: 'stall' }),
    next: async () => {
      const step = steps[taken++];
      if (step === undefined) throw new Error('no keep-alive left');
      step.gate.resolve();
      await step.sent.promise;
      await ioTurns();
    },
  };
}

const STALL = { streamIdleTimeoutMs: 600, totalBudgetMs: 8000, requestTimeoutMs: 4000 };

test('a stream of keep-alive comments with no data is a stall: it fails over and counts against the model', async () => {
  await withScenario(
    { providers: { alpha: ['m1'], beta: ['m2'] }, failover: STALL },
    async ({ router, upstream }) => {
      const queued = keepalives(5, false);
      upstream.script('alpha/m1', queued.behaviour);
      upstream.script('beta/m2', sseContent(['from beta']));
      const pending = router.chat({ stream: true });
      await upstream.nextCall('alpha/m1');
      await ioTurns(); // the router has the stream's head: its idle limit runs from here
      for (let i = 0; i < 5; i += 1) {
        router.clock.advance(100);
        await queued.next();
      }
      router.clock.advance(100);
      const reply = await within(pending, 'the stall at the idle limit');
      assert.equal(reply.status, 200);
      assert.match(reply.text, /from beta/);
      const entry = router.lastEntry();
      assert.equal(entry.outcome, 'served');
      assert.deepEqual(
        entry.attempts.map((attempt) => `${attempt.model}:${attempt.kind ?? 'ok'}`),
        ['alpha/m1:stream_stall', 'beta/m2:ok'],
      );
      assert.equal(entry.wallMs, STALL.streamIdleTimeoutMs, 'failed over at the idle limit, not the budget');
      assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
    },
  );
});

test('a provider that sends comments while it queues, then content within the limit, is served', async () => {
  await withScenario(
    { providers: { alpha: ['m1'], beta: ['m2'] }, failover: STALL },
    async ({ router, upstream }) => {
      // Comments for 300 ms (half the idle limit), then real frames.
      const queued = keepalives(3, true);
      upstream.script('alpha/m1', queued.behaviour);
      const pending = router.chat({ stream: true });
      await upstream.nextCall('alpha/m1');
      await ioTurns();
      for (let i = 0; i < 3; i += 1) {
        router.clock.advance(100);
        await queued.next();
      }
      const reply = await pending;
      assert.match(reply.text, /after the queue/);
      assert.equal(router.lastEntry().servedModel, 'alpha/m1');
      assert.equal(router.lastEntry().wallMs, 300);
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    },
  );
});

test('a success that was in flight when the breaker tripped neither closes it nor counts a new trip', async () => {
  await withScenario(
    { providers: { alpha: ['m1'] }, failover: { requestTimeoutMs: 30_000, totalBudgetMs: 60_000 } },
    async ({ router, upstream }) => {
      const release = deferred<void>();
      upstream.script(
        'alpha/m1',
        after(release.promise, json('late but good')),
        status(500),
        status(500),
        status(500),
      );
      const pinned = { model: 'fcm:@alpha/m1' };
      const slow = router.chat(pinned);
      await upstream.nextCall('alpha/m1');
      for (let i = 0; i < 3; i += 1) assert.equal((await router.chat(pinned)).status, 502);
      assert.equal(router.model('alpha/m1').state, 'OPEN');
      assert.equal(router.model('alpha/m1').tripCount, 1);

      release.resolve();
      const late = await slow;
      assert.equal(late.status, 200, 'the agent still gets its answer');
      const model = router.model('alpha/m1');
      assert.equal(model.state, 'OPEN', 'only a trial may close it');
      assert.equal(model.tripCount, 1);
    },
  );
});

test('a body nested thousands of levels deep is a 400 before routing: no attempt, no health damage', async () => {
  await withScenario({ providers: { alpha: ['m1'] } }, async ({ router, upstream }) => {
    upstream.always('alpha/m1', json('never asked'));
    let deep = '"leaf"';
    for (let i = 0; i < 5000; i += 1) deep = `[${deep}]`;
    const body = `{"model":"fcm","messages":[{"role":"user","content":${deep}}]}`;
    const reply = await httpRequest(`${router.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(reply.status, 400);
    assert.match(reply.text, /nests deeper than/);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'none!rejected||skips=0');
    assert.equal(upstream.calls.length, 0);
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
  });
});
