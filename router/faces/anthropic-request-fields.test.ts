import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from './chat-request.js';
import { translateMessagesRequest } from './anthropic-request.js';

function chatOf(body: unknown): ChatRequest {
  const result = translateMessagesRequest(body);
  if (!result.ok) assert.fail(`refused: ${result.message}`);
  return result.chat;
}

const base = { model: 'fcm', max_tokens: 1000 };
const user = (content: unknown): Record<string, unknown> => ({
  ...base,
  messages: [{ role: 'user', content }],
});

test('tools: hosted tools dropped, empty schemas completed, deferred tools sent once a tool_reference loads them', () => {
  const tools = [
    {
      name: 'Bash',
      description: 'Run',
      input_schema: { type: 'object', properties: { command: { type: 'string' } } },
    },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
    { name: 'Empty', input_schema: {} },
    { type: 'custom', name: 'NoSchema' },
    {
      name: 'Later',
      description: 'Deferred',
      input_schema: { type: 'object', properties: {} },
      defer_loading: true,
    },
    { name: 'Never', input_schema: { type: 'object', properties: {} }, defer_loading: true },
  ];
  const first = chatOf({ ...user('hi'), tools });
  assert.deepEqual(
    first.tools?.map((tool) => tool.function),
    [
      {
        name: 'Bash',
        description: 'Run',
        parameters: { type: 'object', properties: { command: { type: 'string' } } },
      },
      { name: 'Empty', parameters: { type: 'object', properties: {} } },
      { name: 'NoSchema', parameters: { type: 'object', properties: {} } },
    ],
  );
  const loaded = chatOf({
    ...base,
    tools,
    messages: [
      { role: 'user', content: 'find' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 's1', name: 'ToolSearch', input: { query: 'select:Later' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 's1',
            content: [{ type: 'tool_reference', tool_name: 'Later' }],
          },
        ],
      },
    ],
  });
  assert.deepEqual(
    loaded.tools?.map((tool) => tool.function.name),
    ['Bash', 'Empty', 'NoSchema', 'Later'],
  );
  assert.deepEqual(loaded.messages[2], { role: 'tool', tool_call_id: 's1', content: 'Tool loaded: Later' });
});

test('tool_choice: auto, any, tool, none; disable_parallel_tool_use; no choice without tools', () => {
  const tools = [{ name: 'Bash', input_schema: { type: 'object', properties: {} } }];
  const pick = (tool_choice: unknown): Partial<ChatRequest> => {
    const chat = chatOf({ ...user('x'), tools, tool_choice });
    return { tool_choice: chat.tool_choice, parallel_tool_calls: chat.parallel_tool_calls };
  };
  assert.deepEqual(pick({ type: 'auto' }), { tool_choice: 'auto', parallel_tool_calls: undefined });
  assert.deepEqual(pick({ type: 'any', disable_parallel_tool_use: true }), {
    tool_choice: 'required',
    parallel_tool_calls: false,
  });
  assert.deepEqual(pick({ type: 'tool', name: 'Bash' }), {
    tool_choice: { type: 'function', function: { name: 'Bash' } },
    parallel_tool_calls: undefined,
  });
  assert.deepEqual(pick({ type: 'none' }), { tool_choice: 'none', parallel_tool_calls: undefined });
  const noTools = chatOf({ ...user('x'), tool_choice: { type: 'auto' } });
  assert.equal(noTools.tool_choice, undefined);
  assert.equal(noTools.tools, undefined);
});

test('max_tokens, stop_sequences, temperature, top_p and stream: false carried; effort mapped or absent', () => {
  const result = translateMessagesRequest({
    ...user('x'),
    stop_sequences: ['END'],
    temperature: 0.2,
    top_p: 0.9,
    top_k: 5,
    stream: false,
    thinking: { type: 'enabled', budget_tokens: 2000 },
    output_config: { effort: 'max' },
  });
  assert.ok(result.ok);
  assert.deepEqual(result.chat, {
    model: 'fcm',
    messages: [{ role: 'user', content: 'x' }],
    max_tokens: 1000,
    temperature: 0.2,
    top_p: 0.9,
    stop: ['END'],
    stream: false,
  });
  assert.equal(result.stream, false);
  assert.equal(result.effort, 'high');
  assert.deepEqual(result.stopSequences, ['END']);
  const off = translateMessagesRequest({
    ...user('x'),
    thinking: { type: 'disabled' },
    output_config: { effort: 'low' },
  });
  assert.ok(off.ok);
  assert.equal(off.effort, null);
});

test('thinking is shown for `enabled` and `adaptive`, omitted with `display: "omitted"` (Claude Code), off when `disabled` or absent', () => {
  const cases: [unknown, string][] = [
    [{ type: 'enabled', budget_tokens: 2000 }, 'text'],
    [{ type: 'adaptive' }, 'text'],
    [{ type: 'adaptive', display: 'summarized' }, 'text'],
    [{ type: 'adaptive', display: 'omitted' }, 'omitted'],
    [{ type: 'disabled', display: 'omitted' }, 'off'],
    [{ type: 'disabled' }, 'off'],
    [undefined, 'off'],
  ];
  for (const [thinking, on] of cases) {
    const result = translateMessagesRequest({ ...user('x'), thinking });
    assert.ok(result.ok);
    assert.equal(result.thinking, on, JSON.stringify(thinking));
  }
});

test('invalid bodies get a 400 that names the field', () => {
  const cases: [unknown, string | null, RegExp][] = [
    [null, null, /request body/],
    [{ model: 'fcm', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens', /max_tokens is required/],
    [{ ...base, messages: [] }, 'messages', /messages/],
    [{ ...base, messages: 'hi' }, 'messages', /must be array/],
    [user([{ type: 'audio', data: 'x' }]), 'messages[0].content[0].type', /text.*image/],
    [user([{ type: 'text', text: 7 }]), 'messages[0].content[0].text', /must be string/],
    [user(7), 'messages[0].content', /must be string or array/],
    [{ ...base, messages: [{ role: 'bot', content: 'x' }] }, 'messages[0].role', /user/],
    [
      user([{ type: 'tool_use', id: 'a', name: 'b', input: {} }]),
      'messages[0].content[0]',
      /tool_use block in a user message/,
    ],
    [{ ...user('x'), tools: [{ description: 'no name' }] }, 'tools[0].name', /name/],
    [{ ...user('x'), tool_choice: { type: 'tool' } }, 'tool_choice.name', /name/],
    [{ ...user('x'), model: 5 }, 'model', /model/],
    [{ ...user('x'), stream: 'yes' }, 'stream', /stream/],
  ];
  for (const [body, param, message] of cases) {
    const result = translateMessagesRequest(body);
    assert.ok(!result.ok, JSON.stringify(body));
    assert.equal(result.param, param, JSON.stringify(body));
    assert.match(result.message, message);
    assert.match(result.message, /^fcm-router: /);
  }
});
