import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest } from './chat-request.js';
import { translateMessagesRequest } from './anthropic-request.js';
import { fixture } from './test-kit.js';

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

test('Claude Code 2.1.332 first turn: system, system-role message, tools and limits', () => {
  const { body } = fixture('claude-code-2.1.332.first-turn.json');
  const result = translateMessagesRequest(body);
  assert.ok(result.ok);
  assert.equal(result.model, 'fcm');
  assert.equal(result.stream, true);
  assert.equal(result.effort, 'high');
  const { chat } = result;
  // The billing line is left out; the other two system blocks and the role: "system" entry after the prompt
  // (blocks with cache_control in a first turn) become one system message, first.
  assert.deepEqual(chat.messages, [
    {
      role: 'system',
      content:
        "You are a Claude agent, built on Anthropic's Claude Agent SDK.\n\n(system prompt)\n\n# Environment\n(environment text: working directory, platform, shell, OS version, date)",
    },
    {
      role: 'user',
      content:
        '<system-reminder>\n(reminder text)\n</system-reminder>\n\nRun echo hello-fixture with Bash and tell me what it printed',
    },
  ]);
  const names = chat.tools?.map((tool) => tool.function.name);
  assert.deepEqual(names, [
    'Agent',
    'Bash',
    'Edit',
    'ListAgents',
    'Read',
    'ReportFindings',
    'ScheduleWakeup',
    'Skill',
    'ToolSearch',
    'Workflow',
    'Write',
  ]);
  const bash = chat.tools?.find((tool) => tool.function.name === 'Bash');
  assert.equal(bash?.function.parameters.$schema, undefined);
  assert.deepEqual(bash?.function.parameters.required, ['command']);
  assert.equal(bash?.function.parameters.additionalProperties, false);
  assert.equal(chat.max_tokens, 32000);
  assert.equal(chat.stream, true);
  assert.deepEqual(chat.stream_options, { include_usage: true });
  for (const dropped of ['thinking', 'metadata', 'context_management', 'output_config', 'system']) {
    assert.equal(dropped in chat, false, dropped);
  }
});

test('Claude Code 2.1.332 tool round: tool_use becomes tool_calls and tool_result a tool message with its id', () => {
  const chat = chatOf(fixture('claude-code-2.1.332.tool-result-turn.json').body);
  const [assistant, tool] = chat.messages.slice(-2);
  assert.deepEqual(assistant, {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'toolu_stub_1',
        type: 'function',
        function: {
          name: 'Bash',
          arguments: '{"command":"echo hello-fixture","description":"Print a word"}',
        },
      },
    ],
  });
  assert.deepEqual(tool, { role: 'tool', tool_call_id: 'toolu_stub_1', content: 'hello-fixture' });
  // In follow-ups the system-role entry is a plain string; it joins the system message all the same.
  assert.deepEqual(
    chat.messages.map((message) => message.role),
    ['system', 'user', 'assistant', 'tool'],
  );
  assert.match(String(chat.messages[0]?.content), /\(system prompt\)\n\n# Environment/);
});

test('system as a string; every system entry joins one system message, first', () => {
  const chat = chatOf({
    ...base,
    system: 'Be brief.',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'Env.' },
      { role: 'assistant', content: 'hello' },
      {
        role: 'system',
        content: [{ type: 'text', text: 'Later note.', cache_control: { type: 'ephemeral' } }],
      },
      { role: 'user', content: 'bye' },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'system', content: 'Be brief.\n\nEnv.\n\nLater note.' },
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
    { role: 'user', content: 'bye' },
  ]);
});

test('images (base64 and url) make the user content a parts array', () => {
  const chat = chatOf(
    user([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
    ]),
  );
  assert.deepEqual(chat.messages[0], {
    role: 'user',
    content: [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
    ],
  });
});

test('tool results: content blocks flattened to text, is_error visible, empty filled, images after the tool messages', () => {
  const chat = chatOf({
    ...base,
    messages: [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'text', text: 'Running.' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'false' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/a.png' } },
          { type: 'tool_use', id: 't3', name: 'Noop', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [{ type: 'text', text: 'exit 1' }],
            is_error: true,
          },
          {
            type: 'tool_result',
            tool_use_id: 't2',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'QQ==' } }],
          },
          { type: 'tool_result', tool_use_id: 't3' },
          { type: 'text', text: 'and then?' },
        ],
      },
    ],
  });
  assert.deepEqual(chat.messages.slice(1), [
    {
      role: 'assistant',
      content: 'Running.',
      tool_calls: [
        { id: 't1', type: 'function', function: { name: 'Bash', arguments: '{"command":"false"}' } },
        { id: 't2', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/a.png"}' } },
        { id: 't3', type: 'function', function: { name: 'Noop', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 't1', content: '[tool error] exit 1' },
    { role: 'tool', tool_call_id: 't2', content: '(image 1 follows in the next user message)' },
    { role: 'tool', tool_call_id: 't3', content: '(no output)' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'and then?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,QQ==' } },
      ],
    },
  ]);
});

test('an assistant turn of nothing but thinking is dropped; a string assistant turn is kept', () => {
  const chat = chatOf({
    ...base,
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'xx' }] },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: 'c' },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'user', content: 'a' },
    { role: 'user', content: 'b' },
    { role: 'assistant', content: 'c' },
  ]);
});

test('messages and text blocks with nothing to say are not sent; a tool call keeps its turn', () => {
  const chat = chatOf({
    ...base,
    system: 'be brief',
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [] },
      { role: 'user', content: '' },
      { role: 'assistant', content: [{ type: 'text', text: ' \n' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: 'b' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '' },
          { type: 'tool_use', id: 't1', name: 'Read', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
      { role: 'assistant', content: '  ' },
    ],
  });
  assert.deepEqual(chat.messages, [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'a' },
    { role: 'user', content: 'b' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'Read', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 't1', content: 'x' },
  ]);
});

test('a blank system text is left out, whether the system field or a system entry', () => {
  const chat = chatOf({
    ...base,
    system: [{ type: 'text', text: ' ' }],
    messages: [
      { role: 'system', content: '\n' },
      { role: 'user', content: 'a' },
    ],
  });
  assert.deepEqual(chat.messages, [{ role: 'user', content: 'a' }]);
});

test('a conversation of empty messages is a 400 naming messages, as Anthropic refuses it', () => {
  for (const content of ['', [], [{ type: 'text', text: ' ' }]]) {
    const refused = translateMessagesRequest({ ...user(content), system: 'be brief' });
    assert.ok(!refused.ok, JSON.stringify(content));
    assert.equal(refused.param, 'messages');
    assert.match(refused.message, /every message is empty/);
  }
});

test('a text document becomes text; a PDF gets a 400 naming the block', () => {
  const chat = chatOf(
    user([
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'N' },
    ]),
  );
  assert.equal(chat.messages[0]?.content, 'N\n\nnotes');
  const pdf = translateMessagesRequest(
    user([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }]),
  );
  assert.ok(!pdf.ok);
  assert.equal(pdf.param, 'messages[0].content[0].source');
  assert.match(pdf.message, /base64 document/);
});
