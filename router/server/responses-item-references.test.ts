/**
 * `item_reference` through a started router over a fake upstream: the items of an answer (JSON or
 * streamed) are kept, a later request that refers to them reaches the upstream with the assistant turn
 * they held; a reference the router does not hold (made up, from a `store: false` answer, or idle too
 * long on the router's clock) is a 400 that reaches no upstream; and the kept content stays out of logs,
 * history, events and state files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { DEFAULT_ITEM_STORE_LIMITS } from '../faces/responses-item-store.js';
import { openRequest } from '../test-support/http-client.js';
import { withScenario } from '../test-support/scenario.js';
import { allFiles } from '../test-support/state-test-helpers.js';
import { byStreaming, json, jsonBody, sse, type Behaviour } from '../test-support/upstream-behaviours.js';
import { completion, finishFrame, reasoningFrame, roleFrame } from '../test-support/upstream-frames.js';

const MODEL = 'good/coder';
const CANARY = 'CANARY-COMPLETION-4b1d';

const readTool = {
  type: 'function' as const,
  name: 'read_file',
  description: 'Read a file',
  strict: false,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};

const toolCall = {
  id: 'call_up_1',
  type: 'function',
  function: { name: 'read_file', arguments: '{"path":"a"}' },
};

/** The upstream's first answer: reasoning, text and a tool call, streamed or whole. */
const thinkThenCall: Behaviour = byStreaming(
  sse([
    roleFrame(),
    reasoningFrame(`Plan ${CANARY}.`),
    { choices: [{ index: 0, delta: { content: `Reading a ${CANARY}.` }, finish_reason: null }] },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...toolCall }] }, finish_reason: null }] },
    finishFrame('tool_calls'),
  ]),
  jsonBody(
    completion('', {
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            reasoning_content: `Plan ${CANARY}.`,
            content: `Reading a ${CANARY}.`,
            tool_calls: [toolCall],
          },
          finish_reason: 'tool_calls',
        },
      ],
    }),
  ),
);

const client = (url: string): OpenAI => new OpenAI({ baseURL: `${url}/v1`, apiKey: 'any', maxRetries: 0 });

/** Asserts a 400 naming the reference at `input[index]`, and that nothing went upstream for it. */
async function assertNotHeld(
  attempt: Promise<unknown>,
  id: string,
  index: number,
  upstreamCalls: () => number,
): Promise<void> {
  const before = upstreamCalls();
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, `input[${index}]`);
    assert.match(error.message, new RegExp(`"${id}".*send the conversation whole.*store: false`));
    assert.equal(error.headers?.get('x-fcm-v2-decision'), 'none!rejected||skips=0');
    return true;
  });
  assert.equal(upstreamCalls(), before);
}

test('an answer’s items, referred to by id, reach the upstream as the assistant turn; unknown ones are a 400', async () => {
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    const openai = client(router.url);
    for (const stream of [false, true]) {
      upstream.script(MODEL, thinkThenCall, json('It holds 42.'));
      const ask = { model: 'fcm', input: [{ role: 'user' as const, content: 'Read a' }], tools: [readTool] };
      const first = stream
        ? await openai.responses.stream(ask).finalResponse()
        : await openai.responses.create(ask);
      assert.deepEqual(
        first.output.map((item) => item.type),
        ['reasoning', 'message', 'function_call'],
      );
      const ids = first.output.map((item) => item.id ?? '');
      const next = await openai.responses.create({
        ...ask,
        input: [
          ...ask.input,
          ...ids.map((id) => ({ type: 'item_reference' as const, id })),
          { type: 'function_call_output', call_id: 'call_up_1', output: 'a holds 42' },
        ],
      });
      assert.equal(next.output_text, 'It holds 42.');
      const sent = upstream.calls.at(-1)?.body?.messages;
      assert.deepEqual(sent, [
        { role: 'user', content: 'Read a' },
        { role: 'assistant', content: `Reading a ${CANARY}.`, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: 'call_up_1', content: 'a holds 42' },
      ]);
    }
    const calls = (): number => upstream.calls.length;
    const made = openai.responses.create({
      model: 'fcm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'item_reference', id: 'msg_made_up' },
      ],
    });
    await assertNotHeld(made, 'msg_made_up', 1, calls);
  });
});

test('no item of a `store: false` answer is kept, and kept items expire after idling on the router’s clock', async () => {
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    upstream.always(MODEL, json('Hello.'));
    const openai = client(router.url);
    const unstored = await openai.responses.create({ model: 'fcm', input: 'hi', store: false });
    const stored = await openai.responses.create({ model: 'fcm', input: 'hi' });
    const refer = (id: string) =>
      openai.responses.create({
        model: 'fcm',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'item_reference', id },
          { role: 'user', content: 'and?' },
        ],
      });
    const unstoredId = unstored.output[0]?.id ?? '';
    const storedId = stored.output[0]?.id ?? '';
    assert.notEqual(unstoredId, storedId, 'every answer gets ids of its own');
    await assertNotHeld(refer(unstoredId), unstoredId, 1, () => upstream.calls.length);
    assert.equal((await refer(storedId)).output_text, 'Hello.');
    router.clock.advance(DEFAULT_ITEM_STORE_LIMITS.maxIdleMs + 1000);
    await assertNotHeld(refer(storedId), storedId, 1, () => upstream.calls.length);
  });
});

test('kept items never reach logs, history, events, the API’s answers or state files', async () => {
  await withScenario({ providers: { good: ['coder'] } }, async ({ router, upstream }) => {
    upstream.script(MODEL, thinkThenCall, thinkThenCall, json('Done.'));
    const events = openRequest(`${router.url}/api/events`);
    let eventText = '';
    const eventsRes = await events.response;
    eventsRes.setEncoding('utf8');
    eventsRes.on('data', (chunk: string) => (eventText += chunk));
    const openai = client(router.url);
    const ask = { model: 'fcm', input: [{ role: 'user' as const, content: 'Read a' }], tools: [readTool] };
    const first = await openai.responses.create(ask);
    const streamed = await openai.responses.stream(ask).finalResponse();
    await openai.responses.create({
      ...ask,
      input: [
        ...ask.input,
        ...[...first.output, ...streamed.output].map((item) => ({
          type: 'item_reference' as const,
          id: item.id ?? '',
        })),
        { type: 'function_call_output', call_id: 'call_up_1', output: 'ok' },
      ],
    });
    assert.ok(
      JSON.stringify(upstream.calls.at(-1)?.body).includes(CANARY),
      'the upstream got the kept items',
    );
    const answers = await Promise.all(
      ['/api/history?limit=500', '/api/state', '/api/config'].map((p) => router.get(p)),
    );
    events.request.destroy();
    await router.stop();
    const haystacks: [string, string][] = [
      ['log lines', router.logText()],
      ['events', eventText],
      ...answers.map((answer, i): [string, string] => [`answer ${i}`, answer.text]),
    ];
    for (const file of await allFiles(router.stateDir)) haystacks.push([file, await readFile(file, 'utf8')]);
    assert.ok(eventText.includes('event: request'), 'events were captured');
    assert.ok(
      haystacks.some(([name]) => name.endsWith('history.json')),
      'history was written',
    );
    for (const [name, text] of haystacks)
      assert.ok(!text.includes(CANARY), `kept content leaked into ${name}`);
  });
});
