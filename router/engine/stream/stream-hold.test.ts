import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, ioTurns, within } from '../../test-support/deferred.js';
import {
  emptyStream,
  json,
  html,
  sse,
  sseContent,
  sseErrorAfterContent,
  sseErrorFirst,
  stallAfter,
} from '../../test-support/upstream-behaviours.js';
import { contentFrame, errorFrame, finishFrame, roleFrame } from '../../test-support/upstream-frames.js';
import { readText, sseData, sseText } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };
const STREAM = { stream: true };
/** For streams the test holds open: an idle timeout far beyond any time the test moves the clock. */
const PATIENT = { ...TWO, failover: { streamIdleTimeoutMs: 60_000 } };

interface ErrorFrame {
  error: { message: string; type: string; code: string };
}

test('a good stream is passed through with decision headers, [DONE] and outcome served', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sseContent(['Hel', 'lo']));
    const reply = await router.chat(STREAM);
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /text\/event-stream/);
    assert.equal(reply.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    assert.equal(reply.headers['x-fcm-v2-model'], 'alpha/m1');
    assert.equal(reply.headers['x-fcm-v2-attempts'], '1');
    assert.ok(reply.headers['x-request-id']);
    assert.equal(sseText(reply.text), 'Hello');
    assert.equal(sseData(reply.text).at(-1), '[DONE]');
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'served');
    assert.equal(entry.stream, true);
  });
});

test('the client gets nothing, not even headers, until the first useful delta', async () => {
  await withScenario(PATIENT, async ({ router, upstream }) => {
    const gate = deferred();
    const sent = deferred();
    upstream.script(
      'alpha/m1',
      sse([
        roleFrame(),
        ': keep-alive\n\n',
        () => sent.resolve(),
        gate.promise,
        contentFrame('late content'),
      ]),
    );
    const open = router.openChat(STREAM);
    let headArrived = false;
    void open.response.then(() => (headArrived = true));
    // The role frame and the comment have left for the router; let it read them (and, wrongly, flush them).
    await sent.promise;
    await ioTurns(10);
    assert.equal(headArrived, false, 'response head must wait for real content');
    gate.resolve();
    const res = await open.response;
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
    const text = await readText(res);
    assert.equal(sseText(text), 'late content');
    assert.equal(sseData(text).at(-1), '[DONE]');
  });
});

test('an error frame before content fails over unseen', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sseErrorFirst()).script('beta/m2', sseContent(['from beta']));
    const reply = await router.chat(STREAM);
    assert.equal(reply.status, 200);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:error_payload->beta/m2:200|skips=0',
    );
    assert.equal(sseText(reply.text), 'from beta');
    assert.ok(!reply.text.includes('upstream exploded'), 'the failed attempt’s bytes never reach the client');
    assert.equal(router.model('alpha/m1').lastFailureKind, 'error_payload');
  });
});

test('an empty stream fails over unseen as empty_stream', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', emptyStream()).script('beta/m2', sseContent(['ok']));
    const reply = await router.chat(STREAM);
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:empty_stream->beta/m2:200|skips=0',
    );
    assert.equal(sseText(reply.text), 'ok');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
  });
});

test('a drip of empty deltas before content is a stall: it fails over unseen, and the model is blamed', async () => {
  await withScenario({ ...TWO, failover: { streamIdleTimeoutMs: 500 } }, async ({ router, upstream }) => {
    const drip = deferred();
    upstream
      .script(
        'alpha/m1',
        sse([roleFrame(), drip.promise, contentFrame(''), contentFrame('')], { then: 'stall' }),
      )
      .script('beta/m2', sseContent(['rescued']));
    const pending = router.chat(STREAM);
    await upstream.nextCall('alpha/m1');
    await ioTurns(); // the router has the stream's head and role frame: its idle limit runs from here
    router.clock.advance(400);
    drip.resolve();
    await ioTurns(); // the empty deltas reach the router 400 ms into its idle limit
    router.clock.advance(100);
    const reply = await within(pending, 'the stalled stream to fail over');
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:stream_stall->beta/m2:200|skips=0',
    );
    assert.equal(sseText(reply.text), 'rescued');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1);
  });
});

test('an HTML page where a stream should be fails over unseen as html_maintenance', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse(['<!DOCTYPE html><html><body>Bad gateway</body></html>\n']));
    upstream.script('alpha/m1', html());
    upstream.always('beta/m2', sseContent(['fine']));
    for (let i = 0; i < 2; i += 1) {
      const reply = await router.chat(STREAM);
      assert.equal(
        reply.headers['x-fcm-v2-decision'],
        'beta/m2!served|alpha/m1:html_maintenance->beta/m2:200|skips=0',
      );
      assert.ok(!reply.text.includes('Bad gateway') && !reply.text.includes('maintenance'));
      assert.equal(sseText(reply.text), 'fine');
    }
  });
});

test('a stall before content (streamIdleTimeoutMs) fails over unseen', async () => {
  await withScenario({ ...TWO, failover: { streamIdleTimeoutMs: 500 } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', stallAfter(0)).script('beta/m2', sseContent(['rescued']));
    const pending = router.chat(STREAM);
    await upstream.nextCall('alpha/m1');
    await ioTurns(); // the router has the stream's head and role frame: its idle limit runs from here
    router.clock.advance(500);
    const reply = await pending;
    assert.equal(
      reply.headers['x-fcm-v2-decision'],
      'beta/m2!served|alpha/m1:stream_stall->beta/m2:200|skips=0',
    );
    assert.equal(sseText(reply.text), 'rescued');
    assert.equal(router.model('alpha/m1').lastFailureKind, 'stream_stall');
    const stalled = upstream.callsTo('alpha/m1')[0];
    await within(stalled?.closed ?? Promise.resolve(), 'the stalled upstream to be dropped');
    assert.equal(stalled?.closedEarly, true, 'the stalled upstream was dropped');
  });
});

for (const done of [true, false]) {
  test(`a stream holding more than holdBufferBytes without a verdict is passed through (${done ? 'with' : 'without'} [DONE])`, async () => {
    await withScenario(
      { ...TWO, failover: { holdBufferBytes: 1024, streamIdleTimeoutMs: 60_000 } },
      async ({ router, upstream }) => {
        const gate = deferred();
        const padding = `: ${'x'.repeat(600)}\n\n`;
        upstream.script(
          'alpha/m1',
          sse([roleFrame(), padding, padding, gate.promise, contentFrame('after padding')], { done }),
        );
        const open = router.openChat(STREAM);
        const res = await open.response;
        assert.equal(
          res.statusCode,
          200,
          'the head is written once the hold cap is passed, before any content',
        );
        gate.resolve();
        const text = await readText(res);
        assert.ok(text.includes('x'.repeat(600)), 'the held bytes are forwarded as they came');
        assert.equal(sseText(text), 'after padding');
        // A stream too strange to judge goes as it came, its ending too.
        assert.equal(router.lastEntry().outcome, 'served');
      },
    );
  });
}

/**
 * `lastPiece`: the content the client has when the stream goes wrong; `idleMs`: how long the router's clock
 * then moves (a stall's idle limit runs from the last piece).
 */
for (const [name, behaviour, kind, lastPiece, idleMs] of [
  [
    'an upstream error frame',
    () => sseErrorAfterContent(['partial ', 'answer ']),
    'mid_stream_error',
    'answer',
    0,
  ],
  ['a stall', () => stallAfter(2), 'stream_stall', 'piece1', 500],
  ['a socket reset', () => sse([contentFrame('partial ')], { then: 'reset' }), 'network_error', 'partial', 0],
] as const) {
  test(`continueStreams false: ${name} after content leaves the client what it got, then the router’s error frame`, async () => {
    const failover = { streamIdleTimeoutMs: 500, continueStreams: false };
    await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
      upstream.script('alpha/m1', behaviour()).always('beta/m2', sseContent(['never spliced']));
      const reading = router.readChat(STREAM);
      await reading.received(lastPiece);
      router.clock.advance(idleMs);
      const reply = await reading.done;
      assert.equal(reply.status, 200);
      const frames = sseData(reply.text);
      assert.ok(sseText(reply.text).startsWith('partial') || sseText(reply.text).startsWith('piece0'));
      assert.ok(!frames.includes('[DONE]'));
      const last = frames.at(-1) as ErrorFrame;
      assert.equal(last.error.code, kind);
      assert.match(last.error.message, /alpha\/m1/);
      assert.match(last.error.message, /incomplete/);
      assert.ok(
        !reply.text.includes('upstream exploded'),
        'the upstream error frame itself is not forwarded',
      );
      assert.ok(!reply.text.includes('never spliced'));
      assert.equal(upstream.callsTo('beta/m2').length, 0, 'no second model is spliced in');
      const entry = router.lastEntry();
      assert.equal(entry.outcome, 'partial');
      assert.equal(entry.servedModel, 'alpha/m1');
      const alpha = router.model('alpha/m1');
      assert.equal(alpha.consecutiveFailures, 1, 'the model is blamed');
      assert.equal(alpha.lastFailureKind, kind);
    });
  });
}

test('a provider that ignores stream: true and answers JSON still gives the client an SSE stream', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', json('plain answer'));
    const reply = await router.chat(STREAM);
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /text\/event-stream/);
    assert.equal(sseText(reply.text), 'plain answer');
    assert.equal(sseData(reply.text).at(-1), '[DONE]');
    assert.equal(router.lastEntry().outcome, 'served');
  });
});

test('content only in a last line with no newline after it is still served, and the stream ends', async () => {
  // The answer's last frame: its content and its finish reason.
  const tailFrame = {
    ...contentFrame('tail only'),
    choices: [{ index: 0, delta: { content: 'tail only' }, finish_reason: 'stop' }],
  };
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(roleFrame())}\n\n`);
      res.end(`data: ${JSON.stringify(tailFrame)}`);
    });
    const reply = await router.chat(STREAM);
    assert.equal(reply.status, 200);
    // The last line as it came, closed as an event before the router's `[DONE]`.
    assert.ok(reply.text.endsWith(`data: ${JSON.stringify(tailFrame)}\n\ndata: [DONE]\n\n`), reply.text);
    assert.equal(router.lastEntry().outcome, 'served');
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

for (const [ending, frames, done] of [
  ['its finish reason and no [DONE]', [finishFrame('stop')], false],
  ['[DONE] and no finish reason', [], true],
] as const) {
  test(`a stream that ends with ${ending} is whole: served as it is`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', sse([roleFrame(), contentFrame('whole'), ...frames], { done }));
      const reply = await router.chat(STREAM);
      assert.equal(sseText(reply.text), 'whole');
      assert.equal(router.lastEntry().outcome, 'served');
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
      assert.equal(upstream.callsTo('beta/m2').length, 0);
    });
  });
}

test('a stream closed after content without its finish reason or [DONE] was cut: the client is told', async () => {
  await withScenario({ ...TWO, failover: { continueStreams: false } }, async ({ router, upstream }) => {
    // Something between the provider and the router closed the stream cleanly half-way.
    upstream.script('alpha/m1', sse([roleFrame(), contentFrame('half an ans')], { done: false }));
    const reply = await router.chat(STREAM);
    assert.equal(reply.status, 200);
    assert.equal(sseText(reply.text), 'half an ans');
    const last = sseData(reply.text).at(-1) as ErrorFrame;
    assert.equal(last.error.code, 'unfinished_stream');
    assert.ok(!reply.text.includes('[DONE]'), 'no [DONE]: the agent knows the turn is incomplete');
    const entry = router.lastEntry();
    assert.equal(entry.outcome, 'partial');
    assert.equal(entry.attempts[0]?.kind, 'unfinished_stream');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 1, 'the model is blamed');
  });
});

test('an error frame in a last line with no newline after it ends a served stream with the router’s frame', async () => {
  await withScenario({ ...TWO, failover: { continueStreams: false } }, async ({ router, upstream }) => {
    upstream.script('alpha/m1', (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(contentFrame('partial '))}\n\n`);
      res.end(`data: ${JSON.stringify(errorFrame())}`);
    });
    const reply = await router.chat(STREAM);
    assert.equal(reply.status, 200);
    assert.equal(sseText(reply.text), 'partial ');
    assert.ok(!reply.text.includes('upstream exploded'), 'the upstream error frame itself is not forwarded');
    const last = sseData(reply.text).at(-1) as ErrorFrame;
    assert.equal(last.error.code, 'mid_stream_error');
    assert.equal(router.lastEntry().outcome, 'partial');
  });
});

test('a streamed text answer that says finish_reason tool_calls reaches the agent with stop', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script(
      'alpha/m1',
      sse([roleFrame(), contentFrame('No tool needed.'), finishFrame('tool_calls')]),
    );
    const reply = await router.chat({ ...STREAM, tools: [{ type: 'function', function: { name: 'Bash' } }] });
    assert.equal(sseText(reply.text), 'No tool needed.');
    const reasons = sseData(reply.text).flatMap((frame) =>
      typeof frame === 'object' && frame !== null
        ? [(frame as { choices: { finish_reason: unknown }[] }).choices[0]?.finish_reason]
        : [],
    );
    assert.deepEqual(
      reasons.filter((reason) => reason !== null),
      ['stop'],
    );
    assert.equal(router.lastEntry().outcome, 'served');
  });
});
