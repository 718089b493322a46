/**
 * A provider that answers SSE to a request that asked for one JSON answer, through the real router: the
 * stream is read whole and folded into one completion, judged as a JSON answer, and served as one on each
 * face. A stream that cannot stand for an answer fails over with the kind the stream path gives. A stream
 * under another content type is read the same way, and a client that asked for a stream gets it replayed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askFace, FACES } from '../../test-support/face-answers.js';
import { withScenario } from '../../test-support/scenario.js';
import { jsonBody, sse, type Behaviour } from '../../test-support/upstream-behaviours.js';
import {
  completion,
  contentFrame,
  errorFrame,
  finishFrame,
  reasoningFrame,
  roleFrame,
  toolCallFrame,
  usageFrame,
} from '../../test-support/upstream-frames.js';

const TWO = { providers: { alpha: ['m1'], beta: ['m2'] } };

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What an agent reads from a face's JSON answer: its text and the names of its tool calls. */
function readJson(face: string, answer: Json): { text: string; tools: string[] } {
  if (face === 'chat') {
    const message = (list(answer.choices)[0]?.message ?? {}) as Json;
    const calls = list(message.tool_calls).map((call) => str((call.function as Json).name));
    return { text: str(message.content), tools: calls };
  }
  if (face === 'messages') {
    const blocks = list(answer.content);
    const text = blocks.map((block) => (block.type === 'text' ? str(block.text) : '')).join('');
    return {
      text,
      tools: blocks.filter((block) => block.type === 'tool_use').map((block) => str(block.name)),
    };
  }
  const items = list(answer.output);
  const parts = items.flatMap((item) => (item.type === 'message' ? list(item.content) : []));
  const text = parts.map((part) => str(part.text)).join('');
  return { text, tools: items.filter((item) => item.type === 'function_call').map((item) => str(item.name)) };
}

const HELLO = [
  roleFrame(),
  reasoningFrame('Greet them.'),
  contentFrame('Hel'),
  contentFrame('lo'),
  finishFrame('stop'),
  usageFrame(11, 4),
];

for (const driver of FACES) {
  test(`an SSE answer to a ${driver.face} request that asked for JSON is served as one JSON answer, no failover`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', sse(HELLO)).script('beta/m2', jsonBody(completion('from beta')));
      const reply = await askFace(router.url, driver, driver.body(false, 'Hi'));
      assert.equal(reply.status, 200, reply.text);
      assert.match(String(reply.headers['content-type']), /application\/json/);
      assert.equal(readJson(driver.face, JSON.parse(reply.text) as Json).text, 'Hello');
      assert.equal(upstream.callsTo('alpha/m1')[0]?.body?.stream ?? false, false, 'no stream was asked for');
      assert.equal(upstream.callsTo('beta/m2').length, 0);
      const entry = router.lastEntry();
      assert.equal(entry.servedModel, 'alpha/m1');
      assert.equal(entry.outcome, 'served');
      assert.equal(entry.attempts.length, 1);
      assert.deepEqual(entry.usage && [entry.usage.promptTokens, entry.usage.completionTokens], [11, 4]);
      assert.equal(router.model('alpha/m1').consecutiveFailures, 0);
    });
  });

  test(`a tool call streamed in pieces to a ${driver.face} request for JSON reaches the agent whole`, async () => {
    const frames = [
      roleFrame(),
      toolCallFrame(0, '{"path":', { id: 'call_1', name: 'read' }),
      toolCallFrame(0, '"a.txt"}'),
      finishFrame('tool_calls'),
    ];
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', sse(frames, { done: false }));
      const reply = await askFace(router.url, driver, driver.body(false, 'Read a.txt', ['read']));
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(readJson(driver.face, JSON.parse(reply.text) as Json).tools, ['read']);
      assert.equal(router.lastEntry().servedModel, 'alpha/m1');
    });
  });
}

test('the folded answer is chat completions’ JSON: reasoning kept, a contradicting finish reason fixed', async () => {
  const frames = [
    reasoningFrame('Look first.'),
    toolCallFrame(0, '{}', { id: 'call_1', name: 'ls' }),
    finishFrame('stop'),
  ];
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', sse(frames));
    const tools = [
      { type: 'function', function: { name: 'ls', parameters: { type: 'object', properties: {} } } },
    ];
    const reply = await router.chat({ tools });
    const answer = JSON.parse(reply.text) as Json;
    assert.equal(answer.object, 'chat.completion');
    const choice = list(answer.choices)[0] as Json;
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal((choice.message as Json).reasoning_content, 'Look first.');
  });
});

test('an SSE body under a JSON content type is still read as the stream it is', async () => {
  const body = HELLO.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('') + 'data: [DONE]\n\n';
  await withScenario(TWO, async ({ router, upstream }) => {
    upstream.script('alpha/m1', jsonBody(body));
    const reply = await router.chat();
    assert.equal(reply.status, 200, reply.text);
    assert.equal(readJson('chat', JSON.parse(reply.text) as Json).text, 'Hello');
    assert.equal(router.lastEntry().servedModel, 'alpha/m1');
  });
});

for (const driver of FACES) {
  test(`a stream under a JSON content type, to a ${driver.face} request that asked for a stream, still reaches it as a stream`, async () => {
    const body = HELLO.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('') + 'data: [DONE]\n\n';
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', jsonBody(body)).script('beta/m2', jsonBody(completion('from beta')));
      const reply = await askFace(router.url, driver, driver.body(true, 'Hi'));
      assert.equal(reply.status, 200, reply.text);
      assert.match(String(reply.headers['content-type']), /text\/event-stream/);
      const read = driver.read(reply.text);
      assert.deepEqual([read.text, read.ending], ['Hello', 'clean']);
      assert.equal(router.lastEntry().servedModel, 'alpha/m1');
      assert.equal(upstream.callsTo('beta/m2').length, 0);
    });
  });
}

const FAILING: [string, Behaviour][] = [
  ['empty_stream', sse([roleFrame()])],
  ['error_payload', sse([roleFrame(), contentFrame('half'), errorFrame('overloaded')], { done: false })],
  ['unfinished_stream', sse([roleFrame(), contentFrame('half an ans')], { done: false })],
  // The gate's rules for any JSON answer: reasoning alone is no answer.
  ['empty_content', sse([reasoningFrame('Hmm.'), finishFrame('stop')])],
];

for (const [kind, behaviour] of FAILING) {
  test(`an SSE answer to a request for JSON that is ${kind} fails over unseen, blamed as ${kind}`, async () => {
    await withScenario(TWO, async ({ router, upstream }) => {
      upstream.script('alpha/m1', behaviour).script('beta/m2', jsonBody(completion('from beta')));
      const reply = await router.chat();
      assert.equal(reply.status, 200, reply.text);
      assert.equal(readJson('chat', JSON.parse(reply.text) as Json).text, 'from beta');
      assert.equal(
        reply.headers['x-fcm-v2-decision'],
        `beta/m2!served|alpha/m1:${kind}->beta/m2:200|skips=0`,
      );
      assert.equal(router.model('alpha/m1').lastFailureKind, kind);
    });
  });
}
