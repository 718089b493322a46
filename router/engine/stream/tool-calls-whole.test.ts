/**
 * Tool calls leave the router whole and valid, on each face: a streamed call is held until it is whole; one
 * the agent could not run (arguments that are not JSON, a tool never offered) fails over unseen as
 * `invalid_tool_call`; a call held when its stream dies is dropped and the answer is continued.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { diesAfter } from '../../test-support/continuing-model.js';
import { sseData } from '../../test-support/http-client.js';
import { withScenario } from '../../test-support/scenario.js';
import { byStreaming, jsonBody, sse } from '../../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  finishFrame,
  roleFrame,
  toolCallFrame,
} from '../../test-support/upstream-frames.js';

const TWO = {
  providers: { alpha: ['m1'], beta: ['m2'] },
  breaker: { failureThreshold: 20, degradedRatio: 1 },
};
const GOOD_ARGS = '{"path":"README.md"}';
const BROKEN_ARGS = '{"path": "README.md", <|tool_call_end|>';
const chatFace = FACES[0] as (typeof FACES)[number];

/** A model that calls `name` with `args`, streamed in pieces or whole, as the request asks. */
function calls(name: string, args: string, id = 'call_1') {
  const pieces = [args.slice(0, 5), args.slice(5, 12), args.slice(12)];
  const frames = pieces.map((piece, i) => toolCallFrame(0, piece, i === 0 ? { id, name } : undefined));
  const message = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
  };
  return byStreaming(
    sse([roleFrame(), ...frames, finishFrame('tool_calls')]),
    jsonBody(completion('', { choices: [{ index: 0, message, finish_reason: 'tool_calls' }] })),
  );
}

for (const face of FACES) {
  for (const [what, name, args] of [
    ['arguments that are not JSON', 'Read', BROKEN_ARGS],
    ['a tool the request did not offer', 'Delete', GOOD_ARGS],
  ] as const) {
    for (const stream of [true, false]) {
      test(`${face.face}${stream ? ' stream' : ''}: a tool call with ${what} fails over unseen`, async () => {
        await withScenario(TWO, async ({ router, upstream }) => {
          upstream
            .script('alpha/m1', calls(name, args))
            .script('beta/m2', calls('Read', GOOD_ARGS, 'call_b'));
          const reply = await askFace(router.url, face, face.body(stream, 'Read it.', ['Read']));
          assert.equal(reply.status, 200);
          assert.ok(!reply.text.includes('<|tool_call_end|>') && !reply.text.includes('Delete'));
          if (stream) assert.deepEqual(face.read(reply.text).tools, [{ name: 'Read', args: GOOD_ARGS }]);
          else assert.match(reply.text, /call_b/);
          const entry = router.lastEntry();
          assert.equal(entry.outcome, 'served');
          assert.deepEqual(
            entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}`),
            ['alpha/m1:invalid_tool_call', 'beta/m2:ok'],
          );
          assert.equal(router.model('alpha/m1').lastFailureKind, 'invalid_tool_call');
        });
      });
    }
  }
}

test('chat: a tool call streamed in pieces reaches the client in one piece, before its finish reason', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', calls('Read', GOOD_ARGS));
    const reply = await askFace(router.url, chatFace, chatFace.body(true, 'Read it.', ['Read']));
    const frames = sseData(reply.text) as {
      choices?: { delta: Record<string, unknown>; finish_reason: unknown }[];
    }[];
    const withCalls = frames.filter((frame) => frame.choices?.[0]?.delta.tool_calls !== undefined);
    assert.equal(withCalls.length, 1);
    assert.deepEqual(withCalls[0]?.choices?.[0]?.delta.tool_calls, [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'Read', arguments: GOOD_ARGS } },
    ]);
    const finishAt = frames.findIndex((frame) => frame.choices?.[0]?.finish_reason === 'tool_calls');
    assert.ok(finishAt > frames.indexOf(withCalls[0] as (typeof frames)[number]));
    assert.equal(frames.at(-1), '[DONE]');
  });
});

test('chat: tool calls that end with finish_reason stop reach the agent as tool_calls, streamed or whole', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'Read', arguments: GOOD_ARGS } }],
    };
    const stream = sse([
      roleFrame(),
      toolCallFrame(0, GOOD_ARGS, { id: 'call_1', name: 'Read' }),
      finishFrame('stop'),
    ]);
    const whole = jsonBody(completion('', { choices: [{ index: 0, message, finish_reason: 'stop' }] }));
    upstream.always('alpha/m1', byStreaming(stream, whole));
    const streamed = await askFace(router.url, chatFace, chatFace.body(true, 'Read it.', ['Read']));
    const finishes = (sseData(streamed.text) as { choices?: { finish_reason: unknown }[] }[]).flatMap(
      (frame) => frame.choices?.map((choice) => choice.finish_reason).filter(Boolean) ?? [],
    );
    assert.deepEqual(finishes, ['tool_calls']);
    const json = await askFace(router.url, chatFace, chatFace.body(false, 'Read it.', ['Read']));
    const body = JSON.parse(json.text) as { choices: { finish_reason: string }[] };
    assert.equal(body.choices[0]?.finish_reason, 'tool_calls');
  });
});

test('arguments sent as a JSON object reach every face as that JSON, streamed or whole', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const call = {
      id: 'call_1',
      type: 'function',
      function: { name: 'Read', arguments: { path: 'README.md' } },
    };
    const frame = { ...roleFrame(), choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...call }] } }] };
    const message = { role: 'assistant', content: null, tool_calls: [call] };
    const whole = jsonBody(completion('', { choices: [{ index: 0, message, finish_reason: 'tool_calls' }] }));
    upstream.always('alpha/m1', byStreaming(sse([roleFrame(), frame, finishFrame('tool_calls')]), whole));
    for (const face of FACES) {
      const reply = await askFace(router.url, face, face.body(true, 'Read it.', ['Read']));
      assert.deepEqual(face.read(reply.text).tools, [{ name: 'Read', args: GOOD_ARGS }], face.face);
    }
    const json = await askFace(router.url, chatFace, chatFace.body(false, 'Read it.', ['Read']));
    const body = JSON.parse(json.text) as { choices: { message: { tool_calls: (typeof call)[] } }[] };
    assert.equal(body.choices[0]?.message.tool_calls[0]?.function.arguments, GOOD_ARGS);
    assert.equal(upstream.callsTo('beta/m2').length, 0, 'no call was refused');
  });
});

test('parallel calls whose pieces come interleaved reach every face whole, in index order', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const frames = [
      roleFrame(),
      toolCallFrame(0, '{"path":', { id: 'call_a', name: 'Read' }),
      toolCallFrame(1, '{"pattern":', { id: 'call_b', name: 'Grep' }),
      toolCallFrame(0, '"a.ts"}'),
      toolCallFrame(1, '"foo"}'),
      finishFrame('tool_calls'),
    ];
    upstream.always('alpha/m1', sse(frames));
    for (const face of FACES) {
      const reply = await askFace(router.url, face, face.body(true, 'Look.', ['Read', 'Grep']));
      assert.deepEqual(
        face.read(reply.text).tools,
        [
          { name: 'Read', args: '{"path":"a.ts"}' },
          { name: 'Grep', args: '{"pattern":"foo"}' },
        ],
        face.face,
      );
      assert.equal(router.lastEntry().attempts[0]?.kind, null, face.face);
    }
  });
});

for (const face of FACES) {
  test(`${face.face}: a stream that dies holding a tool call is continued after its last text`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      const start = toolCallFrame(0, '{"pa', { id: 'call_a', name: 'Read' });
      upstream.script('alpha/m1', diesAfter([contentFrame('Let me look.'), start], 'cut'));
      upstream.script('beta/m2', calls('Read', GOOD_ARGS, 'call_b'));
      const read = face.read((await askFace(router.url, face, face.body(true, 'Read it.', ['Read']))).text);
      assert.equal(read.text, 'Let me look.');
      assert.deepEqual(read.tools, [{ name: 'Read', args: GOOD_ARGS }]);
      assert.equal(read.ending, 'clean');
      const asked = upstream.callsTo('beta/m2')[0]?.body?.messages as { role: string; content: unknown }[];
      assert.deepEqual(asked.at(-2), { role: 'assistant', content: 'Let me look.' });
      const entry = router.lastEntry();
      assert.deepEqual(
        entry.attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}:${a.role}`),
        ['alpha/m1:network_error:normal', 'beta/m2:ok:continuation'],
      );
    });
  });
}

test('a stream that dies after a whole tool call went out ends as that tool-call turn', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const second = toolCallFrame(1, '{"pa', { id: 'call_2', name: 'Read' });
    const first = toolCallFrame(0, GOOD_ARGS, { id: 'call_1', name: 'Read' });
    upstream.always('beta/m2', calls('Read', GOOD_ARGS, 'call_b'));
    for (const face of FACES) {
      upstream.script('alpha/m1', diesAfter([first, second], 'error'));
      const read = face.read((await askFace(router.url, face, face.body(true, 'Read it.', ['Read']))).text);
      assert.deepEqual(read.tools, [{ name: 'Read', args: GOOD_ARGS }], face.face);
      assert.equal(read.ending, 'clean');
      assert.equal(router.lastEntry().outcome, 'served');
    }
    assert.equal(upstream.callsTo('beta/m2').length, 0);
  });
});

test('an unusable tool call after text went out is dropped and the answer continued', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    const bad = toolCallFrame(0, BROKEN_ARGS, { id: 'call_a', name: 'Read' });
    upstream.script(
      'alpha/m1',
      sse([roleFrame(), contentFrame('Reading. '), bad, finishFrame('tool_calls')]),
    );
    upstream.script('beta/m2', calls('Read', GOOD_ARGS, 'call_b'));
    const read = chatFace.read(
      (await askFace(router.url, chatFace, chatFace.body(true, 'Go', ['Read']))).text,
    );
    assert.equal(read.text, 'Reading. ');
    assert.deepEqual(read.tools, [{ name: 'Read', args: GOOD_ARGS }]);
    assert.equal(router.lastEntry().attempts[0]?.kind, 'invalid_tool_call');
  });
});

test('an error frame while the only content is a held tool call fails over unseen', async () => {
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script(
      'alpha/m1',
      diesAfter([toolCallFrame(0, '{"pa', { id: 'call_a', name: 'Read' })], 'error'),
    );
    upstream.script('beta/m2', calls('Read', GOOD_ARGS, 'call_b'));
    const reply = await askFace(router.url, chatFace, chatFace.body(true, 'Go', ['Read']));
    assert.deepEqual(chatFace.read(reply.text).tools, [{ name: 'Read', args: GOOD_ARGS }]);
    assert.ok(!reply.text.includes('call_a'));
    assert.deepEqual(
      router.lastEntry().attempts.map((a) => `${a.model}:${a.kind ?? 'ok'}:${a.role}`),
      ['alpha/m1:error_payload:normal', 'beta/m2:ok:normal'],
    );
  });
});
