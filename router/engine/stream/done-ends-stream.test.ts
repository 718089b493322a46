/**
 * `data: [DONE]` is the end of an upstream's stream, whether or not it then closes its connection: the
 * agent's response ends there, on every face, the attempt is judged as at the close, and the upstream's
 * request is let go. An upstream that keeps its socket open after `[DONE]` (idle, or sending comments) is
 * neither waited for nor blamed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred, within } from '../../test-support/deferred.js';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { withScenario } from '../../test-support/scenario.js';
import { sse, sseContent } from '../../test-support/upstream-behaviours.js';
import {
  contentFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  usageFrame,
} from '../../test-support/upstream-frames.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] }, failover: { streamIdleTimeoutMs: 5000 } };
const DONE = 'data: [DONE]\n\n';

for (const face of FACES) {
  test(`${face.face}: [DONE], then the upstream keeps its connection open: the answer ends there, served`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      const later = deferred();
      const answer = [roleFrame(), contentFrame('Hello'), finishFrame('stop'), usageFrame(1, 2), DONE];
      upstream.script('alpha/m1', sse([...answer, later.promise, ': ping\n\n'], { then: 'stall' }));
      // No clock moves: the answer must end at [DONE], not at the idle limit.
      const reply = await within(
        askFace(router.url, face, face.body(true, 'Say hello.')),
        'the answer to end at [DONE]',
      );
      const read = face.read(reply.text);
      assert.deepEqual([read.text, read.ending, read.afterEnding], ['Hello', 'clean', 0]);
      const call = upstream.callsTo('alpha/m1')[0];
      await within(call?.closed ?? Promise.resolve(), 'the upstream request to be let go');
      later.resolve();
      const entry = router.lastEntry();
      assert.deepEqual(
        entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
        ['alpha/m1:ok'],
      );
      assert.deepEqual([entry.outcome, entry.wallMs], ['served', 0]);
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    });
  });
}

/** `[DONE]` with comments or blank lines after it, all in one read. */
const DONE_THEN_COMMENTS = [
  'data: [DONE]\n\n: keep-alive\n\n',
  'data: [DONE]\n\n\n\n: ping\r\n\r\n: ping\n\n',
];

for (const face of FACES) {
  for (const ending of DONE_THEN_COMMENTS) {
    test(`${face.face}: ${JSON.stringify(ending)} in one read, the connection left open: the answer ends at [DONE]`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        const answer = [roleFrame(), contentFrame('Hello'), finishFrame('stop'), usageFrame(1, 2), ending];
        upstream.script('alpha/m1', sse(answer, { then: 'stall' }));
        // No clock moves: the answer must end at [DONE], not at the idle limit.
        const reply = await within(
          askFace(router.url, face, face.body(true, 'Say hello.')),
          'the answer to end at [DONE]',
        );
        assert.deepEqual(face.read(reply.text).text, 'Hello');
        const call = upstream.callsTo('alpha/m1')[0];
        await within(call?.closed ?? Promise.resolve(), 'the upstream request to be let go');
        const entry = router.lastEntry();
        assert.deepEqual(
          [entry.outcome, entry.wallMs, entry.attempts.map((a) => a.kind ?? 'ok')],
          ['served', 0, ['ok']],
        );
        assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
      });
    });
  }
}

test('[DONE] before any content, the connection left open: an empty stream, failed over at once', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse([roleFrame(), DONE], { then: 'stall' }));
    upstream.script('beta/m2', sseContent(['from beta']));
    const reply = await within(router.chat({ stream: true }), 'the answer');
    assert.match(reply.text, /from beta/);
    const entry = router.lastEntry();
    assert.deepEqual(
      entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
      ['alpha/m1:empty_stream', 'beta/m2:ok'],
    );
    assert.equal(entry.wallMs, 0);
  });
});

test('thoughts alone, then [DONE] and the connection left open: the answer is continued at once', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const frames = [roleFrame(), reasoningFrame('Let me think.'), finishFrame('stop'), DONE];
    upstream.script('alpha/m1', sse(frames, { then: 'stall' }));
    upstream.script('beta/m2', sseContent(['Hello!']));
    const reply = await within(router.chat({ stream: true }), 'the answer');
    assert.match(reply.text, /Hello!/);
    assert.deepEqual(
      router.lastEntry().attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
      ['alpha/m1:empty_content', 'beta/m2:ok'],
    );
  });
});
