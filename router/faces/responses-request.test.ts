import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest, ChatTool } from './chat-request.js';
import { translateResponsesRequest } from './responses-request.js';
import { fixture } from './test-kit.js';

function chatOf(body: unknown): ChatRequest {
  const result = translateResponsesRequest(body);
  if (!result.ok) assert.fail(`refused: ${result.message}`);
  return result.chat;
}

test('Codex 0.171.0 first turn: developer messages one system message, tools flattened, hosted tools dropped', () => {
  const { body } = fixture('codex-0.171.0.first-turn.json');
  const result = translateResponsesRequest(body);
  assert.ok(result.ok);
  assert.equal(result.stream, true);
  assert.equal(result.model, 'fcm');
  assert.equal(result.effort, null);
  const { chat } = result;
  assert.deepEqual(chat.messages[0], {
    role: 'system',
    content:
      '(system prompt)\n\n<skills_instructions>\n(skills list)\n</skills_instructions>\n\n<permissions instructions>\n(sandbox and approval policy)\n</permissions instructions>',
  });
  assert.equal(chat.messages[1]?.role, 'user');
  assert.match(String(chat.messages[1]?.content), /^<environment_context>/);
  assert.deepEqual(chat.messages[2], {
    role: 'user',
    content: 'Run echo hello-fixture and tell me what it printed',
  });
  assert.equal(chat.messages.length, 3);
  assert.deepEqual(
    chat.tools?.map((tool) => tool.function.name),
    [
      'exec_command',
      'write_stdin',
      'request_user_input',
      'view_image',
      'multi_agent_v1__close_agent',
      'multi_agent_v1__resume_agent',
      'multi_agent_v1__send_input',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
      'get_goal',
      'create_goal',
      'update_goal',
    ],
  );
  const exec = chat.tools?.[0]?.function;
  assert.deepEqual(exec?.parameters.required, ['cmd']);
  assert.equal(exec?.strict, false);
  const close = chat.tools?.find((tool) => tool.function.name === 'multi_agent_v1__close_agent');
  assert.match(
    String(close?.function.description),
    /^Tools for spawning and managing sub-agents\.\n\nClose an agent/,
  );
  assert.deepEqual(result.toolNames.get('multi_agent_v1__spawn_agent'), {
    namespace: 'multi_agent_v1',
    name: 'spawn_agent',
  });
  assert.equal(result.toolNames.has('exec_command'), false);
  assert.equal(chat.tool_choice, 'auto');
  assert.equal(chat.parallel_tool_calls, true);
  assert.deepEqual(chat.stream_options, { include_usage: true });
  for (const dropped of ['store', 'include', 'prompt_cache_key', 'client_metadata', 'reasoning', 'input']) {
    assert.equal(dropped in chat, false, dropped);
  }
});

test('Codex 0.171.0 tool round: function_call and function_call_output paired by call_id', () => {
  const chat = chatOf(fixture('codex-0.171.0.tool-output-turn.json').body);
  assert.deepEqual(chat.messages.slice(-2), [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_stub_1',
          type: 'function',
          function: { name: 'exec_command', arguments: '{"cmd":"echo hello-fixture"}' },
        },
      ],
    },
    {
      role: 'tool',
      tool_call_id: 'call_stub_1',
      content:
        'Chunk ID: abc123\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 4\nOutput:\nhello-fixture\n',
    },
  ]);
});

test('Codex 0.171.0 namespaced call in history is flattened to the chat function name', () => {
  const chat = chatOf(fixture('codex-0.171.0.namespace-tool-output-turn.json').body);
  const assistant = chat.messages.at(-2);
  assert.ok(assistant?.role === 'assistant');
  assert.equal(assistant.tool_calls?.[0]?.function.name, 'multi_agent_v1__close_agent');
});

test('Codex 0.171.0 with a GPT-5 model: its freeform apply_patch is a function of one string, its call and output a tool round', () => {
  const { body } = fixture('codex-0.171.0.apply-patch-output-turn.json');
  const result = translateResponsesRequest(body);
  assert.ok(result.ok);
  const { chat } = result;
  assert.deepEqual(
    chat.tools?.map((tool) => tool.function.name),
    [
      'exec_command',
      'write_stdin',
      'request_user_input',
      'apply_patch',
      'view_image',
      'get_goal',
      'create_goal',
      'update_goal',
    ],
    'the client-run tool_search and the hosted web_search are dropped',
  );
  const patch = chat.tools?.[3]?.function;
  assert.match(String(patch?.description), /^The `apply_patch` tool can be used to edit files/);
  assert.deepEqual(patch?.parameters.required, ['input']);
  const input = (patch?.parameters.properties as Record<string, { type: string; description: string }>).input;
  assert.equal(input?.type, 'string');
  assert.match(
    String(input?.description),
    /^The raw freeform input for this tool, as plain text \(not JSON\)/,
  );
  assert.match(String(input?.description), /lark grammar:\nstart: begin_patch hunk\+ end_patch\n/);
  assert.deepEqual(result.toolNames.get('apply_patch'), { name: 'apply_patch', custom: true });
  assert.deepEqual(chat.messages.slice(-2), [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_stub_1',
          type: 'function',
          function: {
            name: 'apply_patch',
            arguments: JSON.stringify({
              input: '*** Begin Patch\n*** Add File: hello.txt\n+hello-fixture\n*** End Patch\n',
            }),
          },
        },
      ],
    },
    {
      role: 'tool',
      tool_call_id: 'call_stub_1',
      content:
        'Exit code: 0\nWall time: 0.4 seconds\nOutput:\nSuccess. Updated the following files:\nA hello.txt\n',
    },
  ]);
});

test('custom tools: unconstrained text or a grammar; in a namespace; a namespaced custom call in history', () => {
  const result = translateResponsesRequest({
    model: 'm',
    tools: [
      { type: 'custom', name: 'note', description: 'Keep a note' },
      { type: 'custom', name: 'digits', format: { type: 'grammar', syntax: 'regex', definition: '\\d+' } },
      { type: 'namespace', name: 'ed', description: 'Editor', tools: [{ type: 'custom', name: 'patch' }] },
    ],
    input: [
      { role: 'user', content: 'Note it' },
      { type: 'custom_tool_call', call_id: 'c1', name: 'patch', namespace: 'ed', input: 'raw "text"' },
      { type: 'custom_tool_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'ok' }] },
    ],
  });
  assert.ok(result.ok);
  const [note, digits, patch] = result.chat.tools ?? [];
  assert.deepEqual(note?.function, {
    name: 'note',
    description: 'Keep a note',
    parameters: {
      type: 'object',
      properties: {
        input: {
          type: 'string',
          description: 'The raw freeform input for this tool, as plain text (not JSON). Unconstrained text.',
        },
      },
      required: ['input'],
    },
  });
  const inputOf = (tool: ChatTool | undefined): unknown =>
    (tool?.function.parameters.properties as Record<string, { description: string }>).input?.description;
  assert.match(String(inputOf(digits)), /It must match this regex grammar:\n\\d\+$/);
  assert.equal(patch?.function.name, 'ed__patch');
  assert.equal(patch?.function.description, 'Editor');
  assert.deepEqual(result.toolNames.get('ed__patch'), { namespace: 'ed', name: 'patch', custom: true });
  assert.deepEqual(result.chat.messages.slice(1), [
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'ed__patch', arguments: '{"input":"raw \\"text\\""}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'ok' },
  ]);
});

test('instructions first; a string input is one user message; max_output_tokens, temperature, top_p carried', () => {
  const result = translateResponsesRequest({
    model: 'fcm',
    instructions: 'Be brief.',
    input: 'hi',
    max_output_tokens: 500,
    temperature: 0.3,
    top_p: 0.8,
    reasoning: { effort: 'xhigh', summary: 'auto' },
    store: false,
    metadata: { a: '1' },
  });
  assert.ok(result.ok);
  assert.deepEqual(result.chat, {
    model: 'fcm',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ],
    max_tokens: 500,
    temperature: 0.3,
    top_p: 0.8,
    stream: false,
  });
  assert.equal(result.effort, 'high');
  assert.equal(result.stream, false);
});

test('input items: easy messages, images, assistant text with parallel calls, reasoning dropped, images of outputs after the tool messages', () => {
  const chat = chatOf({
    model: 'fcm',
    input: [
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
        ],
      },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking both.' }] },
      { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      { type: 'function_call', call_id: 'c2', name: 'view_image', arguments: '{"path":"a.png"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'a.png' },
      {
        type: 'function_call_output',
        call_id: 'c2',
        output: [{ type: 'input_image', image_url: 'data:image/png;base64,QQ==' }],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'system', content: 'sys' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
      ],
    },
    {
      role: 'assistant',
      content: 'Checking both.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"ls"}' } },
        { id: 'c2', type: 'function', function: { name: 'view_image', arguments: '{"path":"a.png"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'a.png' },
    { role: 'tool', tool_call_id: 'c2', content: '(no output)' },
    { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,QQ==' } }] },
    { role: 'assistant', content: 'No.' },
  ]);
});

test('messages and text parts with nothing to say are not sent; a call keeps its turn; blank input is a 400', () => {
  const chat = chatOf({
    model: 'fcm',
    input: [
      { role: 'user', content: 'one' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '' }] },
      { role: 'user', content: [] },
      { role: 'developer', content: ' ' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: '\n' },
          { type: 'input_text', text: 'two' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: ' ' }] },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '' },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'user', content: 'one' },
    { role: 'user', content: 'two' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '(no output)' },
  ]);
  for (const input of ['', ' ', [{ role: 'user', content: '' }]]) {
    const refused = translateResponsesRequest({ model: 'fcm', instructions: 'Base.', input });
    assert.ok(!refused.ok, JSON.stringify(input));
    assert.equal(refused.param, 'input');
  }
});

test('items that send nothing (reasoning, compaction, web search) and system text end no assistant turn: its text and every call, then the results', () => {
  const call = (id: string) => ({ type: 'function_call', call_id: id, name: 'shell', arguments: '{}' });
  const output = (id: string) => ({ type: 'function_call_output', call_id: id, output: `ran ${id}` });
  const chatCall = (id: string) => ({ id, type: 'function', function: { name: 'shell', arguments: '{}' } });
  const reasoning = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Hmm.' }] };
  const chat = chatOf({
    model: 'fcm',
    input: [
      { role: 'user', content: 'one' },
      call('c1'),
      reasoning,
      call('c2'),
      output('c1'),
      output('c2'),
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Next.' }] },
      { type: 'compaction', id: 'cmp_1', encrypted_content: 'opaque' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      { role: 'developer', content: 'Sandbox changed.' },
      call('c3'),
      { ...reasoning, id: 'rs_2' },
      {
        type: 'custom_tool_call',
        call_id: 'c4',
        name: 'apply_patch',
        input: '*** Begin Patch',
      },
      output('c3'),
      { type: 'custom_tool_call_output', call_id: 'c4', output: 'patched' },
      reasoning,
      { role: 'user', content: 'two' },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'system', content: 'Sandbox changed.' },
    { role: 'user', content: 'one' },
    { role: 'assistant', content: null, tool_calls: [chatCall('c1'), chatCall('c2')] },
    { role: 'tool', tool_call_id: 'c1', content: 'ran c1' },
    { role: 'tool', tool_call_id: 'c2', content: 'ran c2' },
    {
      role: 'assistant',
      content: 'Next.',
      tool_calls: [
        chatCall('c3'),
        {
          id: 'c4',
          type: 'function',
          function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'c3', content: 'ran c3' },
    { role: 'tool', tool_call_id: 'c4', content: 'patched' },
    { role: 'user', content: 'two' },
  ]);
});

test('a developer message later in the input joins the system message, first', () => {
  const chat = chatOf({
    model: 'fcm',
    instructions: 'Base.',
    input: [
      { role: 'user', content: 'one' },
      { role: 'developer', content: [{ type: 'input_text', text: 'Permissions changed.' }] },
      { role: 'user', content: 'two' },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'system', content: 'Base.\n\nPermissions changed.' },
    { role: 'user', content: 'one' },
    { role: 'user', content: 'two' },
  ]);
});

test('the reasoning summary is shown when asked (`summary`, or the older `generate_summary`), not when absent or `none`', () => {
  const asked = (reasoning: unknown): unknown => {
    const result = translateResponsesRequest({ model: 'fcm', input: 'hi', reasoning });
    assert.ok(result.ok);
    return result.summary;
  };
  assert.equal(asked({ effort: 'high', summary: 'auto' }), true);
  assert.equal(asked({ summary: 'detailed' }), true);
  assert.equal(asked({ generate_summary: 'concise' }), true);
  assert.equal(asked({ effort: 'high' }), false);
  assert.equal(asked({ summary: 'none' }), false);
  assert.equal(asked({ summary: null }), false);
  assert.equal(asked(undefined), false);
  const wrong = translateResponsesRequest({ model: 'fcm', input: 'hi', reasoning: { summary: 'loud' } });
  assert.equal(wrong.ok, false);
  assert.match(JSON.stringify(wrong), /reasoning\.summary/);
});
