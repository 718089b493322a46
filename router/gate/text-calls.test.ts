import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offeredToolNames } from './offered-tools.js';
import { readTextCalls, textStart } from './text-calls.js';

const OFFERED = new Set(['Read', 'Bash']);
const READ = { name: 'Read', args: '{"path":"a.txt"}' };
const BASH = { name: 'Bash', args: '{"command":"ls"}' };

test('Hermes-style <tool_call> blocks are calls: one or several, arguments or parameters, the last close missing', () => {
  const forms: [string, { name: string; args: string }[]][] = [
    ['<tool_call>\n{"name": "Read", "arguments": {"path": "a.txt"}}\n</tool_call>', [READ]],
    ['  <tool_call>{"name":"Read","parameters":{"path":"a.txt"}}</tool_call>\n', [READ]],
    [
      '<tool_call>{"name":"Read","arguments":{"path":"a.txt"}}</tool_call>\n<tool_call>{"name":"Bash","arguments":"{\\"command\\":\\"ls\\"}"}</tool_call>',
      [READ, { name: 'Bash', args: '{"command":"ls"}' }],
    ],
    ['<tool_call>{"name":"Read","arguments":{"path":"a.txt"}}', [READ]],
    ['<tool_call>{"type":"function","name":"Bash","arguments":{"command":"ls"}}</tool_call>', [BASH]],
  ];
  for (const [text, calls] of forms)
    assert.deepEqual(readTextCalls(text, OFFERED), { kind: 'calls', calls }, text);
});

test('Mistral’s [TOOL_CALLS]: a JSON array, or name[ARGS]{…} each (with a [CALL_ID])', () => {
  const forms = [
    '[TOOL_CALLS][{"name": "Read", "arguments": {"path": "a.txt"}}, {"name": "Bash", "arguments": {"command": "ls"}}]',
    '[TOOL_CALLS]Read[ARGS]{"path": "a.txt"}[TOOL_CALLS]Bash[ARGS]{"command": "ls"}',
    '[TOOL_CALLS]Read[CALL_ID]abc123XYZ[ARGS]{"path": "a.txt"}[TOOL_CALLS]Bash[ARGS]{"command": "ls"}',
  ];
  for (const text of forms) {
    const read = readTextCalls(text, OFFERED);
    assert.equal(read.kind, 'calls', text);
    if (read.kind !== 'calls') continue;
    assert.deepEqual(
      read.calls.map((call) => [call.name, JSON.parse(call.args) as unknown]),
      [
        ['Read', { path: 'a.txt' }],
        ['Bash', { command: 'ls' }],
      ],
    );
  }
});

test('Llama’s <function=name>{…}</function> blocks (alone or in <tool_call>) and <|python_tag|> JSON are calls', () => {
  const forms: [string, { name: string; args: string }[]][] = [
    ['<function=Read>{"path": "a.txt"}</function>', [READ]],
    ['<function=Read>{"path":"a.txt"}</function>\n<function=Bash>{"command":"ls"}</function>', [READ, BASH]],
    ['<function=Bash>{"command": "ls"}', [BASH]],
    ['<tool_call>\n<function=Bash>{"command": "ls"}</function>\n</tool_call>', [BASH]],
    ['<|python_tag|>{"name": "Read", "parameters": {"path": "a.txt"}}', [READ]],
  ];
  for (const [text, calls] of forms)
    assert.deepEqual(readTextCalls(text, OFFERED), { kind: 'calls', calls }, text);
});

test('Qwen3-Coder’s <parameter=…> lists are calls, each value typed by the offered tool’s schema', () => {
  const offered = offeredToolNames({
    tools: [
      {
        type: 'function',
        function: {
          name: 'Read',
          parameters: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              limit: { type: 'integer' },
              all: { type: 'boolean' },
              globs: { type: 'array' },
              note: { anyOf: [{ type: 'string' }, { type: 'object' }] },
            },
          },
        },
      },
      { type: 'function', function: { name: 'Bash' } },
    ],
  });
  const read = [
    '<tool_call>\n<function=Read>',
    '<parameter=path>\n42\n</parameter>',
    '<parameter=limit>\n20\n</parameter>',
    '<parameter=all>\ntrue\n</parameter>',
    '<parameter=globs>\n["*.ts"]\n</parameter>',
    '<parameter=note>\n{"a": 1}\n</parameter>',
    '<parameter=extra>\n7\n</parameter>',
    '</function>\n</tool_call>',
  ].join('\n');
  assert.deepEqual(readTextCalls(read, offered), {
    kind: 'calls',
    calls: [
      {
        name: 'Read',
        args: '{"path":"42","limit":20,"all":true,"globs":["*.ts"],"note":{"a":1},"extra":"7"}',
      },
    ],
  });
  const lines = '<function=Bash>\n<parameter=command>\nls\n\npwd\n</parameter>\n</function>';
  assert.deepEqual(readTextCalls(lines, offered), {
    kind: 'calls',
    calls: [{ name: 'Bash', args: '{"command":"ls\\n\\npwd"}' }],
  });
  const typo = '<function=Read>\n<parameter=limit>\ntwenty\n</parameter>\n</function>';
  assert.deepEqual(
    readTextCalls(typo, offered),
    {
      kind: 'calls',
      calls: [{ name: 'Read', args: '{"limit":"twenty"}' }],
    },
    'a value that is not of its type stays as written, for the call check and the agent to judge',
  );
});

test('Kimi K2’s and DeepSeek’s call tokens, GLM’s <arg_key> pairs, Granite’s and Phi’s <|tool_call|> and fenced JSON in <tool_call> are calls', () => {
  const forms: [string, { name: string; args: string }[]][] = [
    [
      '<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.Read:0<|tool_call_argument_begin|>{"path": "a.txt"}<|tool_call_end|>\n<|tool_call_begin|>functions.Bash:1<|tool_call_argument_begin|>{"command": "ls"}<|tool_call_end|>\n<|tool_calls_section_end|>',
      [READ, BASH],
    ],
    [
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>Read\n```json\n{"path": "a.txt"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      [READ],
    ],
    [
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>Bash<｜tool▁sep｜>{"command": "ls"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      [BASH],
    ],
    ['<tool_call>Read\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n</tool_call>', [READ]],
    ['<tool_call>Bash<arg_key>command</arg_key><arg_value>ls</arg_value></tool_call>', [BASH]],
    ['<|tool_call|>[{"name": "Read", "arguments": {"path": "a.txt"}}]', [READ]],
    ['<|tool_call|>[{"name": "Bash", "arguments": {"command": "ls"}}]<|/tool_call|>', [BASH]],
    ['<tool_call>\n```json\n{"name": "Read", "arguments": {"path": "a.txt"}}\n```\n</tool_call>', [READ]],
  ];
  for (const [text, calls] of forms)
    assert.deepEqual(readTextCalls(text, OFFERED), { kind: 'calls', calls }, text);
  const typed = offeredToolNames({
    tools: [
      {
        type: 'function',
        function: { name: 'Read', parameters: { properties: { limit: { type: 'integer' } } } },
      },
    ],
  });
  assert.deepEqual(
    readTextCalls('<tool_call>Read<arg_key>limit</arg_key><arg_value> 20 </arg_value></tool_call>', typed),
    {
      kind: 'calls',
      calls: [{ name: 'Read', args: '{"limit":20}' }],
    },
  );
});

test('bare JSON in OpenAI’s shape of a call, or a tool_calls list, calls offered tools; other JSON is words', () => {
  const forms: [string, { name: string; args: string }[]][] = [
    ['{"type": "function", "function": {"name": "Read", "parameters": {"path": "a.txt"}}}', [READ]],
    [
      '{"tool_calls": [{"id": "1", "type": "function", "function": {"name": "Bash", "arguments": "{\\"command\\":\\"ls\\"}"}}]}',
      [BASH],
    ],
    ['{"tool_calls": [{"name": "Read", "arguments": {"path": "a.txt"}, "id": "162875335"}]}', [READ]],
  ];
  for (const [text, calls] of forms)
    assert.deepEqual(readTextCalls(text, OFFERED), { kind: 'calls', calls }, text);
  for (const words of [
    '{"type": "function", "function": {"name": "Write", "parameters": {}}}',
    '{"function": {"name": "Read", "arguments": {}}, "note": 1}',
    '{"tool_calls": [], "note": 1}',
    '{"tool_calls": []}',
  ])
    assert.deepEqual(readTextCalls(words, OFFERED), { kind: 'words' }, words);
});

test('the bare JSON of a call to an offered tool (alone, in an array or a json fence) is a call; other JSON is words', () => {
  assert.deepEqual(readTextCalls('{"name": "Read", "parameters": {"path": "a.txt"}}', OFFERED), {
    kind: 'calls',
    calls: [READ],
  });
  assert.deepEqual(readTextCalls('```json\n[{"name":"Bash","arguments":{"command":"ls"}}]\n```', OFFERED), {
    kind: 'calls',
    calls: [BASH],
  });
  for (const words of [
    '{"name": "Write", "arguments": {"path": "a.txt"}}', // not offered: a JSON answer, maybe
    '{"name": "Read", "arguments": {"path": "a.txt"}, "note": "x"}', // more than a call
    '{"answer": 42}',
    '[1, 2, 3]',
    '```python\nprint("hi")\n```',
    'Sure. <tool_call>{"name":"Read","arguments":{}}</tool_call>', // words first: an answer about markup
    'Hello!',
    '',
  ])
    assert.deepEqual(readTextCalls(words, OFFERED), { kind: 'words' }, words);
});

test('call markup that cannot be read as calls is unreadable, named by its form and never by its content', () => {
  for (const [text, form] of [
    [
      '<tool_call>\n<invoke name="Read">\n<parameter name="path">a.txt</parameter>\n</invoke>\n</tool_call>',
      '<tool_call>',
    ],
    [
      '<tool_call>{"name":"Read","arguments":{"path":"a.txt"}}</tool_call> and then some prose',
      '<tool_call>',
    ],
    ['[TOOL_CALLS]Read{"path":"a.txt"}', '[TOOL_CALLS]'],
    ['<function=Read>\n<parameter=path>\na.txt\n</function>', '<function='],
    ['<function=Read>{"path": "a.txt"}"</function>', '<function='],
    ['<|python_tag|>print(open("a.txt").read())', '<|python_tag|>'],
    ['<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>Read<｜tool▁sep｜>{"path":"a.t', '<｜tool▁calls▁begin｜>'],
    [
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.Read:0{"path":"a.txt"}',
      '<|tool_calls_section_begin|>',
    ],
    ['<tool_call>Read\n<arg_key>path</arg_key>\n</tool_call>', '<tool_call>'],
    ['<|tool_call|>Read(path="a.txt")', '<|tool_call|>'],
  ]) {
    const read = readTextCalls(text ?? '', OFFERED);
    assert.equal(read.kind, 'unreadable', text);
    if (read.kind === 'unreadable') {
      assert.match(read.detail, new RegExp(`\\(${(form ?? '').replace(/[|[\]]/g, '\\$&')}\\)`));
      assert.doesNotMatch(read.detail, /a\.txt/);
    }
  }
});

test('while it streams, a text start is unknown, maybe calls, or words', () => {
  const cases: [string, string][] = [
    ['', 'unknown'],
    ['<', 'unknown'],
    ['<tool_ca', 'unknown'],
    ['[TOOL', 'unknown'],
    ['[', 'unknown'],
    ['`', 'unknown'],
    ['```', 'unknown'],
    ['```json', 'unknown'],
    ['```json\n', 'unknown'],
    ['<tool_call>', 'maybe_calls'],
    ['<tool_call>{"na', 'maybe_calls'],
    ['[TOOL_CALLS]', 'maybe_calls'],
    ['<|python_tag|>', 'maybe_calls'],
    ['{', 'unknown'],
    ['[{', 'unknown'],
    ['{ "na', 'unknown'],
    ['```\n[', 'unknown'],
    ['{"name"', 'maybe_calls'],
    ['{"function"', 'maybe_calls'],
    ['{"tool_calls"', 'maybe_calls'],
    ['{"fu', 'unknown'],
    ['<function=', 'maybe_calls'],
    ['[ {"type"', 'maybe_calls'],
    ['```json\n{"name"', 'maybe_calls'],
    ['{"answer"', 'words'],
    ['{"ans', 'words'],
    ['{ x', 'words'],
    ['[README](README.md) says', 'words'],
    ['[x] done', 'words'],
    ['```python\n', 'words'],
    ['```json\nconst', 'words'],
    ['<think>', 'words'],
    ['<th', 'words'],
    ['Sure', 'words'],
    ['S', 'words'],
  ];
  for (const [start, expected] of cases) assert.equal(textStart(start), expected, start);
});

test('with no tool offered, nothing in the text is a call', () => {
  const none = new Set<string>();
  for (const text of [
    '<tool_call>{"name":"Read","arguments":{}}</tool_call>',
    '<function=Read>{}</function>',
  ])
    assert.deepEqual(readTextCalls(text, none), { kind: 'words' });
});
