import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceHasUsefulContent, hasUsefulContent } from './content-rule.js';

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
