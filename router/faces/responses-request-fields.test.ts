import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from './chat-request.js';
import { translateResponsesRequest } from './responses-request.js';

function chatOf(body: unknown): ChatRequest {
  const result = translateResponsesRequest(body);
  if (!result.ok) assert.fail(`refused: ${result.message}`);
  return result.chat;
}

test('tool_choice forms; text.format as response_format; no tool fields without tools', () => {
  const tools = [
    { type: 'function', name: 'f', parameters: { type: 'object', properties: {} } },
    {
      type: 'namespace',
      name: 'ns',
      description: 'N',
      tools: [
        { type: 'function', name: 'g' },
        { type: 'custom', name: 'patch' },
      ],
    },
    { type: 'web_search', external_web_access: false },
  ];
  const choice = (tool_choice: unknown): unknown =>
    chatOf({ model: 'm', input: 'x', tools, tool_choice }).tool_choice;
  assert.equal(choice('required'), 'required');
  assert.equal(choice('none'), 'none');
  assert.deepEqual(choice({ type: 'function', name: 'f' }), { type: 'function', function: { name: 'f' } });
  assert.deepEqual(choice({ type: 'function', name: 'g', namespace: 'ns' }), {
    type: 'function',
    function: { name: 'ns__g' },
  });
  assert.deepEqual(choice({ type: 'custom', name: 'patch', namespace: 'ns' }), {
    type: 'function',
    function: { name: 'ns__patch' },
  });
  assert.equal(choice({ type: 'web_search' }), 'auto');
  const withTools = chatOf({ model: 'm', input: 'x', tools });
  assert.deepEqual(
    withTools.tools?.map((tool) => tool.function.name),
    ['f', 'ns__g', 'ns__patch'],
  );
  assert.deepEqual(withTools.tools?.[1]?.function, {
    name: 'ns__g',
    description: 'N',
    parameters: { type: 'object', properties: {} },
  });
  const bare = chatOf({
    model: 'm',
    input: 'x',
    tools: [{ type: 'web_search' }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
  });
  assert.equal(bare.tools, undefined);
  assert.equal(bare.tool_choice, undefined);
  assert.equal(bare.parallel_tool_calls, undefined);
  const schema = { type: 'object', properties: { a: { type: 'string' } } };
  assert.deepEqual(
    chatOf({
      model: 'm',
      input: 'x',
      text: { format: { type: 'json_schema', name: 'out', schema, strict: true } },
    }).response_format,
    {
      type: 'json_schema',
      json_schema: { name: 'out', schema, strict: true },
    },
  );
  assert.deepEqual(
    chatOf({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).response_format,
    { type: 'json_object' },
  );
  assert.equal(
    chatOf({ model: 'm', input: 'x', text: { format: { type: 'text' }, verbosity: 'low' } }).response_format,
    undefined,
  );
});

test('allowed_tools: only the allowed tools go upstream, `auto` or `required` from its mode; none left, no tools', () => {
  const fn = (name: string): Record<string, unknown> => ({ type: 'function', name });
  const tools = [
    fn('read_file'),
    fn('delete_file'),
    { type: 'custom', name: 'apply_patch' },
    { type: 'namespace', name: 'fs', description: 'Files', tools: [fn('list'), fn('stat')] },
    { type: 'namespace', name: 'git', description: 'Git', tools: [fn('log')] },
    { type: 'web_search' },
  ];
  const allowed = (mode: string, list: unknown[]): ChatRequest =>
    chatOf({
      model: 'm',
      input: 'x',
      tools,
      tool_choice: { type: 'allowed_tools', mode, tools: list },
      parallel_tool_calls: false,
    });
  const names = (chat: ChatRequest): string[] | undefined => chat.tools?.map((tool) => tool.function.name);

  const auto = allowed('auto', [fn('read_file'), { type: 'custom', name: 'apply_patch' }]);
  assert.deepEqual(names(auto), ['read_file', 'apply_patch']);
  assert.equal(auto.tool_choice, 'auto');
  assert.equal(auto.parallel_tool_calls, false);

  const required = allowed('required', [
    { type: 'function', name: 'stat', namespace: 'fs' },
    { type: 'namespace', name: 'git' },
    { type: 'mcp', server_label: 'deepwiki' },
  ]);
  assert.deepEqual(names(required), ['fs__stat', 'git__log']);
  assert.equal(required.tool_choice, 'required');

  for (const list of [[], [{ type: 'web_search' }], [fn('not_offered')]]) {
    const none = allowed('required', list);
    assert.equal(none.tools, undefined, JSON.stringify(list));
    assert.equal(none.tool_choice, undefined);
    assert.equal(none.parallel_tool_calls, undefined);
  }
});

test('previous_response_id and conversation get a clear 400', () => {
  const previous = translateResponsesRequest({ model: 'm', input: 'x', previous_response_id: 'resp_1' });
  assert.ok(!previous.ok);
  assert.equal(previous.param, 'previous_response_id');
  assert.match(previous.message, /keeps no whole conversations; send the whole conversation in `input`/);
  const conversation = translateResponsesRequest({ model: 'm', input: 'x', conversation: 'conv_1' });
  assert.ok(!conversation.ok);
  assert.equal(conversation.param, 'conversation');
  assert.ok(translateResponsesRequest({ model: 'm', input: 'x', previous_response_id: null }).ok);
});

test('invalid bodies get a 400 that names the field', () => {
  const cases: [unknown, string | null, RegExp][] = [
    [{ model: 'm' }, 'input', /input is required \(string or array\)/],
    [{ input: 'x' }, 'model', /model is required/],
    [{ model: 'm', input: [{ type: 'mystery', id: 'x' }] }, 'input[0].type', /message/],
    [{ model: 'm', input: [{ type: 'item_reference', id: 'x' }] }, 'input[0]', /does not hold/],
    [{ model: 'm', input: [{ type: 'item_reference' }] }, 'input[0].id', /id is required/],
    [
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
      'input[0].content[0]',
      /input_file/,
    ],
    [
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] },
      'input[0].content[0].image_url',
      /file ids/,
    ],
    [
      { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] },
      'input[0].call_id',
      /call_id is required/,
    ],
    [{ model: 'm', input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name', /name is required/],
    [
      {
        model: 'm',
        input: 'x',
        tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'function', name: 'f', parameters: 5 }] }],
      },
      'tools[0].tools[0].parameters',
      /must be object/,
    ],
    [{ model: 'm', input: [{ role: 'developer', content: 'only instructions' }] }, 'input', /no message/],
    [{ model: 'm', input: 'x', max_output_tokens: 0 }, 'max_output_tokens', /too small/],
  ];
  for (const [body, param, message] of cases) {
    const result = translateResponsesRequest(body);
    assert.ok(!result.ok, JSON.stringify(body));
    assert.equal(result.param, param, JSON.stringify(body));
    assert.match(result.message, message, JSON.stringify(body));
  }
});
