/**
 * A request that forces a tool call (chat's `tool_choice: "required"` or a named function, Anthropic's
 * `any` or `tool`, the Responses API's `required` or a named function) is answered with a call, on every
 * face: a model that answers in prose, or calls only another tool than the one named, fails over unseen as
 * `tool_choice_ignored`, with no breaker damage, while its prose is served when the choice is `auto`; and
 * when every model ignores the choice, the agent is told so. Prose held in place of the call stays inside
 * the request's budget. A model that ignored one another model made goes behind the others for requests
 * that force a call, for an hour.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryEntry, StateResponse } from '../../api-types.js';
import type { Face } from '../../faces/answer-encoder.js';
import { REFUSAL_LESSON_MS } from '../../state/fit-book.js';
import { deferred, ioTurns, within } from '../../test-support/deferred.js';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { parseReply } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';
import {
  byStreaming,
  jsonBody,
  sse,
  type Behaviour,
  type Frame,
} from '../../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  roleFrame,
  toolCallFrame,
} from '../../test-support/upstream-frames.js';

const TWO = {
  providers: { alpha: ['m1'], beta: ['m2'] },
  breaker: { failureThreshold: 2, degradedRatio: 1 },
};
const ARGS = '{"path":"README.md"}';
const PROSE = 'I would read README.md first.';

/** How each face forces a call: any tool, or the one named; and how it leaves the choice to the model. */
const CHOICE: Record<Face, { required: object; named: (name: string) => object; auto: object }> = {
  chat: {
    required: { tool_choice: 'required' },
    named: (name) => ({ tool_choice: { type: 'function', function: { name } } }),
    auto: { tool_choice: 'auto' },
  },
  messages: {
    required: { tool_choice: { type: 'any' } },
    named: (name) => ({ tool_choice: { type: 'tool', name } }),
    auto: { tool_choice: { type: 'auto' } },
  },
  responses: {
    required: { tool_choice: 'required' },
    named: (name) => ({ tool_choice: { type: 'function', name } }),
    auto: { tool_choice: 'auto' },
  },
};

/** A model that answers in prose, streamed in pieces or whole, as the request asks. */
const prose = (): Behaviour =>
  byStreaming(
    sse([roleFrame(), contentFrame('I would read '), contentFrame('README.md first.'), finishFrame('stop')]),
    jsonBody(completion(PROSE)),
  );

/** A model that says a few words, then calls `name`, streamed in pieces or whole. */
function calls(name: string, id: string): Behaviour {
  const pieces = [ARGS.slice(0, 6), ARGS.slice(6)];
  const frames = pieces.map((piece, i) => toolCallFrame(0, piece, i === 0 ? { id, name } : undefined));
  const message = {
    role: 'assistant',
    content: 'Reading it.',
    tool_calls: [{ id, type: 'function', function: { name, arguments: ARGS } }],
  };
  return byStreaming(
    sse([roleFrame(), contentFrame('Reading it.'), ...frames, finishFrame('tool_calls')]),
    jsonBody(completion('', { choices: [{ index: 0, message, finish_reason: 'tool_calls' }] })),
  );
}

const chainOf = (attempts: readonly { model: string; kind: string | null }[]): string[] =>
  attempts.map((attempt) => `${attempt.model}:${attempt.kind ?? 'ok'}`);

for (const face of FACES) {
  for (const stream of [true, false]) {
    const named = `${face.face}${stream ? ' stream' : ''}`;

    test(`${named}: prose is served when the choice is the model's, and passed over for the next model's call when one is forced`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        upstream.always('alpha/m1', prose()).always('beta/m2', calls('Read', 'call_b'));
        const tools = face.body(stream, 'Read it.', ['Read', 'Write']);
        const free = await askFace(router.url, face, { ...tools, ...CHOICE[face.face].auto });
        assert.equal(free.status, 200);
        if (stream) assert.equal(face.read(free.text).text, PROSE);
        else assert.ok(free.text.includes(PROSE));
        assert.deepEqual(chainOf(router.lastEntry().attempts), ['alpha/m1:ok']);

        const reply = await askFace(router.url, face, { ...tools, ...CHOICE[face.face].required });
        assert.equal(reply.status, 200);
        assert.equal(upstream.calls[1]?.body?.tool_choice, 'required');
        assert.ok(!reply.text.includes('README.md first'), 'the prose never reaches the agent');
        if (stream) assert.deepEqual(face.read(reply.text).tools, [{ name: 'Read', args: ARGS }]);
        else assert.match(reply.text, /call_b/);
        const entry = router.lastEntry();
        assert.equal(entry.outcome, 'served');
        assert.deepEqual(chainOf(entry.attempts), ['alpha/m1:tool_choice_ignored', 'beta/m2:ok']);
        // The model is blamed in its success rate, not its breaker: it answers other requests well.
        const first = router.model('alpha/m1');
        assert.deepEqual([first.stats.attempts, first.stats.successes], [2, 1]);
        assert.equal(first.state, 'CLOSED');
        assert.equal(first.lastFailureKind, null);
      });
    });

    test(`${named}: a call forced by name answered with another tool's call fails over`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        upstream.always('alpha/m1', calls('Write', 'call_wr1')).always('beta/m2', calls('Read', 'call_b'));
        const body = {
          ...face.body(stream, 'Read it.', ['Read', 'Write']),
          ...CHOICE[face.face].named('Read'),
        };
        const reply = await askFace(router.url, face, body);
        assert.equal(reply.status, 200);
        assert.deepEqual(upstream.calls[0]?.body?.tool_choice, {
          type: 'function',
          function: { name: 'Read' },
        });
        assert.ok(!reply.text.includes('call_wr1'), "the other tool's call never reaches the agent");
        if (stream) assert.deepEqual(face.read(reply.text).tools, [{ name: 'Read', args: ARGS }]);
        else assert.match(reply.text, /call_b/);
        assert.deepEqual(chainOf(router.lastEntry().attempts), [
          'alpha/m1:tool_choice_ignored',
          'beta/m2:ok',
        ]);
      });
    });

    test(`${named}: when every model ignores a forced call, the agent is told why`, async () => {
      await withScenario(TWO, async ({ router, upstream }) => {
        upstream.always('alpha/m1', prose()).always('beta/m2', prose());
        const body = { ...face.body(stream, 'Read it.', ['Read']), ...CHOICE[face.face].required };
        const reply = await askFace(router.url, face, body);
        assert.equal(reply.status, 502);
        assert.ok(!reply.text.includes('README.md first'));
        assert.match(reply.text, /tool_choice_ignored/);
        assert.match(reply.text, /forces a tool call/);
        const entry = router.lastEntry();
        assert.equal(entry.outcome, 'all_failed');
        assert.deepEqual(chainOf(entry.attempts), [
          'alpha/m1:tool_choice_ignored',
          'beta/m2:tool_choice_ignored',
        ]);
      });
    });
  }
}

/** A stream whose first frames come at once and whose rest waits for `rest`, so the clock can pass between. */
const pausedStream = (first: Frame[], rest: Promise<void>, last: Frame[]): Behaviour =>
  sse([roleFrame(), ...first, rest, ...last]);

test('prose held in place of a forced call stays inside the request’s budget; a forced call under way outlives it', async () => {
  const failover = { requestTimeoutMs: 12_000, streamIdleTimeoutMs: 12_000, totalBudgetMs: 10_000 };
  const tools = [{ type: 'function', function: { name: 'Read' } }];
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    const rest = deferred();
    const last = [contentFrame('README.md first.'), finishFrame('stop')];
    upstream.always('alpha/m1', pausedStream([contentFrame('I would read ')], rest.promise, last));
    upstream.always('beta/m2', calls('Read', 'call_b'));
    const reply = router.chat({ stream: true, tools, tool_choice: 'required' });
    await upstream.nextCall('alpha/m1');
    await ioTurns(); // alpha's prose passed the gate: held for the call, nothing committed
    router.clock.advance(10_000);
    rest.resolve();
    const { status, headers, text } = await within(reply, 'the answer');
    assert.equal(status, 504);
    assert.equal(headers['x-fcm-v2-decision'], 'none!all_failed|alpha/m1:budget_exhausted|skips=0');
    assert.ok(!text.includes('I would read'));
    assert.equal(upstream.callsTo('beta/m2').length, 0, 'the budget is spent');
    assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
  });
  await withScenario({ ...TWO, failover }, async ({ router, upstream }) => {
    const rest = deferred();
    const start = [contentFrame('Reading it.'), toolCallFrame(0, '{"path":', { id: 'call_a', name: 'Read' })];
    const last = [toolCallFrame(0, '"a"}'), finishFrame('tool_calls')];
    upstream.always('alpha/m1', pausedStream(start, rest.promise, last));
    const reply = router.chat({ stream: true, tools, tool_choice: 'required' });
    await upstream.nextCall('alpha/m1');
    await ioTurns(); // the call's first piece came: held until whole, the budget no longer runs
    router.clock.advance(10_700);
    rest.resolve();
    const { status, headers } = await within(reply, 'the answer');
    assert.equal(status, 200);
    assert.equal(headers['x-fcm-v2-decision'], 'alpha/m1!served|alpha/m1:200|skips=0');
  });
});

test('a model that ignored a forced call another model made goes behind for an hour, for requests that force one only', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.always('alpha/m1', prose()).always('beta/m2', calls('Read', 'call_b'));
    const chat = FACES[0] as (typeof FACES)[number];
    const ask = async (choice: object): Promise<HistoryEntry> => {
      const reply = await askFace(router.url, chat, { ...chat.body(false, 'Read it.', ['Read']), ...choice });
      assert.equal(reply.status, 200);
      return router.lastEntry();
    };
    assert.equal(router.model('alpha/m1').ignoredForcedAt, null);
    const learntAt = router.clock.now();
    const learnt = await ask(CHOICE.chat.required);
    assert.deepEqual(chainOf(learnt.attempts), ['alpha/m1:tool_choice_ignored', 'beta/m2:ok']);
    const models = parseReply<StateResponse>(await router.get('/api/state')).models;
    const lessons = models.map((m) => [m.key, m.ignoredForcedAt, m.refusedServedAt]);
    assert.deepEqual(lessons, [
      ['alpha/m1', learntAt, null],
      ['beta/m2', null, null],
    ]);
    const behind = await ask(CHOICE.chat.required);
    assert.deepEqual(chainOf(behind.attempts), ['beta/m2:ok']);
    assert.deepEqual(behind.behind, ['alpha/m1']);
    const free = await ask(CHOICE.chat.auto);
    assert.deepEqual(chainOf(free.attempts), ['alpha/m1:ok'], 'a request that forces nothing finds it first');
    assert.equal(free.behind, undefined);
    router.clock.advance(REFUSAL_LESSON_MS);
    assert.equal(router.model('alpha/m1').ignoredForcedAt, null, 'an hour on, the state says nothing');
    const again = await ask(CHOICE.chat.required);
    assert.deepEqual(chainOf(again.attempts), ['alpha/m1:tool_choice_ignored', 'beta/m2:ok']);
  });
});
