/**
 * `@anthropic-ai/sdk` (`messages.create`, `messages.stream`) reads the Messages encoder's output, served by
 * the faces' SDK test server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { startFaceServer } from './sdk-test-server.js';

let stop: () => Promise<void> = async () => {};
let baseUrl = '';

before(async () => {
  const server = await startFaceServer();
  baseUrl = server.url;
  stop = server.close;
});

after(() => stop());

const anthropic = (scenario: string): Anthropic =>
  new Anthropic({
    baseURL: baseUrl,
    apiKey: 'any',
    maxRetries: 0,
    defaultHeaders: { 'x-scenario': scenario },
  });
const ask = { model: 'fcm', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Hi' }] };
const bash = {
  name: 'Bash',
  description: 'Run a command',
  input_schema: { type: 'object' as const, properties: { cmd: { type: 'string' } } },
};
test('anthropic sdk: messages.create and messages.stream read a text answer', async () => {
  const created = await anthropic('text').messages.create(ask);
  assert.deepEqual(created.content, [{ type: 'text', text: 'Hello there' }]);
  assert.equal(created.stop_reason, 'end_turn');
  assert.equal(created.usage.input_tokens, 12);
  const streamed = await anthropic('text').messages.stream(ask).finalMessage();
  assert.deepEqual(streamed.content, [{ type: 'text', text: 'Hello there' }]);
  assert.equal(streamed.usage.output_tokens, 3);
  assert.equal(streamed.usage.input_tokens, 12);
});

test('anthropic sdk: with thinking on, a reasoning-only answer is a signed thinking block', async () => {
  const thinking = { ...ask, thinking: { type: 'adaptive' as const } };
  for (const message of [
    await anthropic('reasoning').messages.create(thinking),
    await anthropic('reasoning').messages.stream(thinking).finalMessage(),
  ]) {
    assert.deepEqual(message.content, [
      { type: 'thinking', thinking: 'Only thinking', signature: 'fcm-router' },
    ]);
    assert.equal(message.stop_reason, 'max_tokens');
  }
});

test('anthropic sdk: with thinking off, the reasoning is left out', async () => {
  for (const message of [
    await anthropic('reasoning').messages.create(ask),
    await anthropic('reasoning').messages.stream(ask).finalMessage(),
  ]) {
    assert.deepEqual(message.content, []);
    assert.equal(message.stop_reason, 'max_tokens');
  }
});

test('anthropic sdk: a tool-use round trip, streamed and not', async () => {
  for (const streamed of [true, false]) {
    const client = anthropic('tool');
    const request = { ...ask, tools: [bash] };
    const first = streamed
      ? await client.messages.stream(request).finalMessage()
      : await client.messages.create(request);
    assert.equal(first.stop_reason, 'tool_use');
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    assert.ok(toolUse?.type === 'tool_use');
    assert.deepEqual(toolUse.input, { cmd: 'echo hi' });
    const next = {
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant' as const, content: first.content },
        {
          role: 'user' as const,
          content: [{ type: 'tool_result' as const, tool_use_id: toolUse.id, content: 'hi' }],
        },
      ],
    };
    const second = streamed
      ? await client.messages.stream(next).finalMessage()
      : await client.messages.create(next);
    assert.deepEqual(second.content, [{ type: 'text', text: `It printed hi (for ${toolUse.id})` }]);
  }
});

test('anthropic sdk: a stream broken after content rejects with the error event', async () => {
  const stream = anthropic('broken').messages.stream(ask);
  const texts: string[] = [];
  stream.on('text', (text) => texts.push(text));
  await assert.rejects(stream.finalMessage(), (error: unknown) => {
    assert.ok(error instanceof Anthropic.APIError);
    assert.match(error.message, /api_error.*failed after part of the answer was sent/);
    return true;
  });
  assert.deepEqual(texts, ['Partial']);
});

test('anthropic sdk: an error before any byte is a typed API error', async () => {
  await assert.rejects(anthropic('limited').messages.create(ask), (error: unknown) => {
    assert.ok(error instanceof Anthropic.RateLimitError);
    assert.equal(error.status, 429);
    assert.deepEqual(error.error, {
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: 'fcm-router: every model of the set is quota-paused; retry later',
      },
    });
    return true;
  });
});
