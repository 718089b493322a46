/**
 * `openai` (`responses.create`, `responses.stream`) reads the Responses encoder's output, served by the
 * faces' SDK test server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startFaceServer } from './sdk-test-server.js';

let stop: () => Promise<void> = async () => {};
let baseUrl = '';

before(async () => {
  const server = await startFaceServer();
  baseUrl = server.url;
  stop = server.close;
});

after(() => stop());

const openai = (scenario: string): OpenAI =>
  new OpenAI({
    baseURL: `${baseUrl}/v1`,
    apiKey: 'any',
    maxRetries: 0,
    defaultHeaders: { 'x-scenario': scenario },
  });

const execCommand = {
  type: 'function' as const,
  name: 'exec_command',
  description: 'Run',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
};

test('openai sdk: responses.create (JSON and stream events) and responses.stream read a text answer', async () => {
  const created = await openai('text').responses.create({ model: 'fcm', input: 'Hi' });
  assert.equal(created.output_text, 'Hello there');
  assert.equal(created.status, 'completed');
  assert.equal(created.usage?.total_tokens, 15);
  const events = await openai('text').responses.create({ model: 'fcm', input: 'Hi', stream: true });
  const types: string[] = [];
  for await (const event of events) types.push(event.type);
  assert.equal(types[0], 'response.created');
  assert.equal(types.at(-1), 'response.completed');
  const final = await openai('text').responses.stream({ model: 'fcm', input: 'Hi' }).finalResponse();
  assert.equal(final.output_text, 'Hello there');
  assert.equal(final.usage?.input_tokens, 12);
});

test('openai sdk: a reasoning-only answer is a reasoning item with summary text', async () => {
  for (const response of [
    await openai('reasoning').responses.create({ model: 'fcm', input: 'Hi' }),
    await openai('reasoning').responses.stream({ model: 'fcm', input: 'Hi' }).finalResponse(),
  ]) {
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(
      response.output.map((item) => (item.type === 'reasoning' ? item.summary : item.type)),
      [[{ type: 'summary_text', text: 'Only thinking' }]],
    );
  }
});

test('openai sdk: a function call round trip, streamed and not', async () => {
  for (const stream of [true, false]) {
    const client = openai('tool');
    const request = {
      model: 'fcm',
      input: [{ role: 'user' as const, content: 'Run echo hi' }],
      tools: [execCommand],
    };
    const first = stream
      ? await client.responses.stream(request).finalResponse()
      : await client.responses.create(request);
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call?.type === 'function_call');
    assert.equal(call.name, 'exec_command');
    assert.equal(call.arguments, '{"cmd":"echo hi"}');
    const next = {
      ...request,
      input: [
        ...request.input,
        call,
        { type: 'function_call_output' as const, call_id: call.call_id, output: 'hi' },
      ],
    };
    const second = stream
      ? await client.responses.stream(next).finalResponse()
      : await client.responses.create(next);
    assert.equal(second.output_text, `It printed hi (for ${call.call_id})`);
  }
});

test('openai sdk: a stream broken after content ends as a failed response', async () => {
  const final = await openai('broken').responses.stream({ model: 'fcm', input: 'Hi' }).finalResponse();
  assert.equal(final.status, 'failed');
  assert.equal(final.error?.code, 'server_error');
  assert.match(String(final.error?.message), /failed after part of the answer was sent/);
  // What was sent before the break stays, as an incomplete message.
  assert.equal(final.output_text, 'Partial');
  const partial = final.output[0];
  assert.ok(partial?.type === 'message');
  assert.equal(partial.status, 'incomplete');
});

test('openai sdk: an error before any byte is a typed API error', async () => {
  await assert.rejects(
    openai('limited').responses.create({ model: 'fcm', input: 'Hi' }),
    (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError);
      assert.equal(error.status, 429);
      assert.equal(error.code, 'rate_limit_exceeded');
      assert.equal(error.type, 'rate_limit_error');
      return true;
    },
  );
});
