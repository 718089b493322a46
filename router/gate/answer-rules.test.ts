import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  callsForcedTool,
  choiceHasUsefulContent,
  forcedToolNames,
  hasUsefulContent,
  messageToolProblem,
  toolCallProblem,
} from './answer-rules.js';
import { checkResponseBody } from './response-gate.js';

test('useful: text, tool calls, function call, refusal, reasoning', () => {
  const useful: unknown[] = [
    { content: 'hi' },
    { content: '  x  ' },
    { role: 'assistant', content: [{ type: 'text', text: 'part' }] },
    {
      content: [
        { type: 'text', text: ' ' },
        { type: 'text', text: 'second' },
      ],
    },
    { content: null, tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '' } }] },
    { function_call: { name: 'f', arguments: '{}' } },
    { refusal: 'I cannot help with that.' },
    { reasoning_content: 'Let me think' },
    { reasoning: 'thinking...' },
    { content: '', reasoning_content: 'first' },
  ];
  for (const value of useful) assert.equal(hasUsefulContent(value), true, JSON.stringify(value));
});

test('not useful: whitespace, role-only, empty arrays, nulls, non-objects', () => {
  const useless: unknown[] = [
    null,
    undefined,
    'text',
    42,
    [],
    [{ content: 'x' }],
    {},
    { role: 'assistant' },
    { role: 'assistant', content: '' },
    { content: ' \n\t ' },
    { content: [] },
    { content: [{ type: 'text', text: '   ' }] },
    { content: [{ type: 'image_url', image_url: { url: 'x' } }] },
    { tool_calls: [] },
    { tool_calls: null },
    { function_call: null },
    { function_call: 'f' },
    { refusal: ' ' },
    { reasoning_content: '\n' },
    { reasoning: '' },
    { content: 5 },
  ];
  for (const value of useless) assert.equal(hasUsefulContent(value), false, JSON.stringify(value));
});

test('choiceHasUsefulContent checks delta or message', () => {
  assert.equal(choiceHasUsefulContent({ index: 0, delta: { content: 'a' } }), true);
  assert.equal(choiceHasUsefulContent({ index: 0, message: { role: 'assistant', content: 'a' } }), true);
  assert.equal(choiceHasUsefulContent({ index: 0, delta: { role: 'assistant' } }), false);
  assert.equal(choiceHasUsefulContent({ index: 0, finish_reason: 'stop' }), false);
  assert.equal(choiceHasUsefulContent({ index: 0, delta: {}, message: { content: 'late' } }), true);
  assert.equal(choiceHasUsefulContent(null), false);
  assert.equal(choiceHasUsefulContent('x'), false);
});

const OFFERED = new Set(['Bash', 'Read']);

test('toolCallProblem: a call the agent can run, or what is wrong with it (never its name or arguments)', () => {
  const rows: [string | null, string, string | null][] = [
    ['Bash', '{"command":"ls"}', null],
    ['Bash', '', null],
    ['Bash', '  ', null],
    ['Bash', '{"command": "ls", <|tool_call_end|>', 'tool call arguments are not JSON'],
    ['Bash', '{"command":"ls"', 'tool call arguments are not JSON'],
    ['Bash', '["ls"]', 'tool call arguments are not a JSON object'],
    ['Delete', '{}', 'a call to a tool the request did not offer'],
    [null, '{}', 'a tool call without a name'],
  ];
  for (const [name, args, expected] of rows) assert.equal(toolCallProblem(name, args, OFFERED), expected);
});

test('messageToolProblem: the first unusable call of a whole message', () => {
  const call = (name: string, args: string) => ({
    id: 'c',
    type: 'function',
    function: { name, arguments: args },
  });
  assert.equal(
    messageToolProblem({ tool_calls: [call('Bash', '{}'), call('Read', '{"a":1}')] }, OFFERED),
    null,
  );
  assert.equal(
    messageToolProblem({ tool_calls: [call('Bash', '{}'), call('Nope', '{}')] }, OFFERED),
    'a call to a tool the request did not offer',
  );
  assert.equal(
    messageToolProblem({ function_call: { name: 'Bash', arguments: '{' } }, OFFERED),
    'tool call arguments are not JSON',
  );
  assert.equal(messageToolProblem({ content: 'text only' }, OFFERED), null);
});

test('arguments sent as a JSON value are that JSON: an object is runnable, any other value is not', () => {
  const fn = (args: unknown) => ({ tool_calls: [{ id: 'c', function: { name: 'Bash', arguments: args } }] });
  assert.equal(messageToolProblem(fn({ command: 'rm -rf build' }), OFFERED), null);
  for (const args of [42, ['ls'], true])
    assert.equal(messageToolProblem(fn(args), OFFERED), 'tool call arguments are not a JSON object');
  assert.equal(messageToolProblem(fn(null), OFFERED), null, 'none are empty arguments');
});

test('the response gate fails an unusable tool call as invalid_tool_call in strict mode only', () => {
  const body = JSON.stringify({
    choices: [
      {
        index: 0,
        message: { role: 'assistant', tool_calls: [{ function: { name: 'Nope', arguments: '{}' } }] },
      },
    ],
  });
  const strict = checkResponseBody(body, 'application/json', 'strict', { tools: OFFERED });
  assert.equal(strict.ok ? null : strict.kind, 'invalid_tool_call');
  assert.equal(checkResponseBody(body, 'application/json', 'basic', { tools: OFFERED }).ok, true);
  assert.equal(checkResponseBody(body, 'application/json', 'strict').ok, true, 'no tool names: not checked');
});

test('a forced tool call: any checked tool for required, the one named when offered; nothing otherwise', () => {
  const checked = new Set(['Read', 'Write']);
  const named = (name: string) => ({ tool_choice: { type: 'function', function: { name } } });
  assert.equal(forcedToolNames({ tool_choice: 'required' }, checked), checked);
  assert.deepEqual(forcedToolNames(named('Read'), checked), new Set(['Read']));
  assert.deepEqual(forcedToolNames({ function_call: { name: 'Write' } }, checked), new Set(['Write']));
  for (const body of [{}, { tool_choice: 'auto' }, { tool_choice: 'none' }, named('Delete')])
    assert.equal(forcedToolNames(body, checked), null, JSON.stringify(body));
  // Tool calls not checked (validation below strict, several choices), or no tools: nothing is forced.
  assert.equal(forcedToolNames({ tool_choice: 'required' }, null), null);
  assert.equal(forcedToolNames({ tool_choice: 'required' }, new Set()), null);
});

test('a message meets a forced call when one of its calls names a forced tool', () => {
  const forced = new Set(['Read']);
  const calls = (...names: string[]) => ({
    tool_calls: names.map((name, i) => ({
      id: `c${i}`,
      type: 'function',
      function: { name, arguments: '{}' },
    })),
  });
  assert.equal(callsForcedTool(calls('Read'), forced), true);
  assert.equal(callsForcedTool(calls('Write', 'Read'), forced), true);
  assert.equal(callsForcedTool({ function_call: { name: 'Read', arguments: '{}' } }, forced), true);
  assert.equal(callsForcedTool(calls('Write'), forced), false);
  assert.equal(callsForcedTool({ content: 'I would read it.' }, forced), false);
  assert.equal(callsForcedTool(null, forced), false);
});
