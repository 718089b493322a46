import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessagesEncoder } from './anthropic-encoder.js';
import type { ThinkingShown } from './anthropic-message.js';
import { completion, gated } from './test-kit.js';

const encoder = (thinking: ThinkingShown = 'text'): MessagesEncoder =>
  new MessagesEncoder({
    idStem: 'req7f3a',
    model: 'fcm',
    thinking,
    inputTokens: 40,
    stopSequences: ['</answer>', 'END'],
  });
const json = (body: string, thinking: ThinkingShown = 'text'): Record<string, unknown> =>
  JSON.parse(encoder(thinking).json(gated(body))) as Record<string, unknown>;

test('a text answer as a message, usage split into input and cache reads', () => {
  const message = json(
    completion({ content: 'Hello' }, 'stop', {
      prompt_tokens: 120,
      completion_tokens: 7,
      prompt_tokens_details: { cached_tokens: 100 },
    }),
  );
  assert.deepEqual(message, {
    id: 'msg_req7f3a',
    type: 'message',
    role: 'assistant',
    model: 'fcm',
    content: [{ type: 'text', text: 'Hello' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 7, cache_read_input_tokens: 100 },
  });
});

test('reasoning becomes a signed thinking block first; tool calls become tool_use blocks with parsed input', () => {
  const message = json(
    completion(
      {
        reasoning_content: 'Need to list files.',
        content: 'Listing.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
          { id: 'call_b', type: 'function', function: { name: 'Read', arguments: 'not json' } },
          { type: 'function', function: { name: 'Noop', arguments: '' } },
        ],
      },
      'tool_calls',
    ),
  );
  assert.deepEqual(message.content, [
    { type: 'thinking', thinking: 'Need to list files.', signature: 'fcm-router' },
    { type: 'text', text: 'Listing.' },
    { type: 'tool_use', id: 'call_a', name: 'Bash', input: { command: 'ls' } },
    { type: 'tool_use', id: 'call_b', name: 'Read', input: {} },
    { type: 'tool_use', id: 'toolu_req7f3a_3', name: 'Noop', input: {} },
  ]);
  assert.equal(message.stop_reason, 'tool_use');
});

test("usage: the upstream's counts win; the router's estimate stands in for an input it did not count", () => {
  const usage = (body: string): unknown => json(body).usage;
  assert.deepEqual(usage(completion({ content: 'a' })), { input_tokens: 40, output_tokens: 0 });
  const outputOnly = completion({ content: 'a' }, 'stop', { completion_tokens: 3 });
  assert.deepEqual(usage(outputOnly), { input_tokens: 40, output_tokens: 3 });
  const counted = completion({ content: 'a' }, 'stop', { prompt_tokens: 7, completion_tokens: 3 });
  assert.deepEqual(usage(counted), { input_tokens: 7, output_tokens: 3 });
});

test('thinking not asked for: no thinking block, the text is content[0]; usage as the upstream said', () => {
  const body = completion({ reasoning_content: 'A sum.', content: '4' }, 'stop', {
    prompt_tokens: 20,
    completion_tokens: 9,
    completion_tokens_details: { reasoning_tokens: 6 },
  });
  const message = json(body, 'off');
  assert.deepEqual(message.content, [{ type: 'text', text: '4' }]);
  assert.deepEqual(message.usage, { input_tokens: 20, output_tokens: 9 });
  assert.deepEqual(json(completion({ reasoning: 'Only thoughts' }, 'length'), 'off').content, []);
});

test('thinking shown as omitted (Claude Code asks so): the thinking block comes signed and empty', () => {
  const body = completion({ reasoning_content: 'A long chain of thought.', content: '4' });
  assert.deepEqual(json(body, 'omitted').content, [
    { type: 'thinking', thinking: '', signature: 'fcm-router' },
    { type: 'text', text: '4' },
  ]);
  assert.deepEqual(json(completion({ content: '4' }), 'omitted').content, [{ type: 'text', text: '4' }]);
});

test('finish_reason → stop_reason', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['stop', { content: 'a' }, 'end_turn'],
    ['length', { content: 'a' }, 'max_tokens'],
    ['content_filter', { content: 'a' }, 'refusal'],
    ['tool_calls', { content: 'a' }, 'end_turn'],
    [
      'stop',
      { tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      'tool_use',
    ],
  ];
  for (const [finish, message, stop] of cases)
    assert.equal(json(completion(message, finish)).stop_reason, stop, finish);
  assert.equal(json(completion({ reasoning: 'only thinking' }, 'length')).stop_reason, 'max_tokens');
});

test("a stop on one of the request's stop_sequences: stop_sequence, naming it (vLLM's and SGLang's fields)", () => {
  const stopped = (choice: Record<string, unknown>): unknown => {
    const body = JSON.parse(completion({ content: '<answer>4' })) as { choices: object[] };
    body.choices = [{ ...body.choices[0], ...choice }];
    const message = json(JSON.stringify(body));
    return [message.stop_reason, message.stop_sequence];
  };
  assert.deepEqual(stopped({ stop_reason: '</answer>' }), ['stop_sequence', '</answer>']);
  assert.deepEqual(stopped({ matched_stop: 'END' }), ['stop_sequence', 'END']);
  // A stop string not asked for, a stop token's number, or another finish: as before.
  assert.deepEqual(stopped({ stop_reason: '<|im_end|>' }), ['end_turn', null]);
  assert.deepEqual(stopped({ stop_reason: 151645 }), ['end_turn', null]);
  assert.deepEqual(stopped({ finish_reason: 'length', stop_reason: 'END' }), ['max_tokens', null]);
});

test('errors before any byte: Anthropic error shape, type from status', () => {
  const types: [number, string][] = [
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [422, 'invalid_request_error'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'overloaded_error'],
    [529, 'overloaded_error'],
  ];
  for (const [status, type] of types) {
    const body = encoder().error({
      status,
      code: 'x',
      type: 'y',
      message: 'fcm-router: no',
      retryAfterSec: null,
    });
    assert.deepEqual(
      JSON.parse(body),
      { type: 'error', error: { type, message: 'fcm-router: no' } },
      String(status),
    );
  }
});
