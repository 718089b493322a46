import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promoteTextCalls } from './text-call-promotion.js';

const OFFERED = new Set(['Read', 'Bash']);

test('a whole answer’s calls written as text become its tool_calls; a think block before them stays its content', () => {
  const choice = {
    index: 0,
    message: {
      role: 'assistant',
      content:
        '<think>Need the file.</think>\n\n<tool_call>{"name":"Read","arguments":{"path":"a.txt"}}</tool_call>',
    },
    finish_reason: 'stop',
  };
  assert.equal(promoteTextCalls(choice, OFFERED), true);
  assert.deepEqual(choice.message, {
    role: 'assistant',
    content: '<think>Need the file.</think>',
    tool_calls: [{ type: 'function', function: { name: 'Read', arguments: '{"path":"a.txt"}' } }],
  });

  const plain = {
    message: { role: 'assistant', content: '[TOOL_CALLS]Bash[ARGS]{"command":"ls"}', tool_calls: [] },
  };
  assert.equal(promoteTextCalls(plain, OFFERED), true);
  assert.equal(plain.message.content, null);

  const unreadable = {
    message: { role: 'assistant', content: '<function=Read><parameter=path>a</function>' },
  };
  assert.match(String(promoteTextCalls(unreadable, OFFERED)), /cannot be read/);
  assert.equal(unreadable.message.content, '<function=Read><parameter=path>a</function>', 'left as it came');

  const withCalls = {
    message: {
      content: '<tool_call>{"name":"Read","arguments":{}}</tool_call>',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'Bash', arguments: '{}' } }],
    },
  };
  assert.equal(promoteTextCalls(withCalls, OFFERED), false, 'a message with calls of its own is left alone');
  const words = { message: { content: 'Hello.' } };
  assert.equal(promoteTextCalls(words, OFFERED), false);
  assert.deepEqual(words, { message: { content: 'Hello.' } });
});

test('calls written after words become its tool_calls, and the words stay its content', () => {
  const choice = {
    message: {
      role: 'assistant',
      content:
        '<think>Plan.</think>\nI will read it first.\n\n<tool_call>\n{"name":"Read","arguments":{"path":"a.txt"}}\n</tool_call>\n',
    },
  };
  assert.equal(promoteTextCalls(choice, OFFERED), true);
  assert.deepEqual(choice.message, {
    role: 'assistant',
    content: '<think>Plan.</think>\nI will read it first.',
    tool_calls: [{ type: 'function', function: { name: 'Read', arguments: '{"path":"a.txt"}' } }],
  });
  const shown = 'Write it like this:\n```\n<tool_call>{"name":"Read","arguments":{}}</tool_call>\n```';
  const fenced = { message: { content: shown } };
  assert.equal(promoteTextCalls(fenced, OFFERED), false, 'markup shown in a fence is words');
  assert.equal(fenced.message.content, shown);
});

test('with no tool offered, no call is read from the text', () => {
  const none = new Set<string>();
  assert.equal(promoteTextCalls({ message: { content: '[TOOL_CALLS]Read[ARGS]{}' } }, none), false);
  const after = { message: { content: 'Sure.\n<tool_call>{"name":"Read","arguments":{}}</tool_call>' } };
  assert.equal(promoteTextCalls(after, none), false);
});
