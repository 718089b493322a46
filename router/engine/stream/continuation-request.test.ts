import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTINUE_TEXT, continuationBody, continuationNeeds } from './continuation-request.js';

const body = {
  model: 'fcm',
  stream: true,
  tools: [{ type: 'function', function: { name: 'Bash' } }],
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Say hello.' },
  ],
};

test('the answer so far goes back as the assistant’s own words, then the instruction to go on', () => {
  const next = continuationBody(body, { text: 'Hel', reasoning: 'thinking' });
  assert.deepEqual(next, {
    ...body,
    messages: [
      ...body.messages,
      { role: 'assistant', content: 'Hel' },
      { role: 'user', content: CONTINUE_TEXT },
    ],
  });
  assert.equal(body.messages.length, 2, 'the agent’s body is not changed');
});

test('an agent’s own prefill stays the start of the answer', () => {
  const prefilled = { ...body, messages: [...body.messages, { role: 'assistant', content: '{"a":' }] };
  const next = continuationBody(prefilled, { text: '1,', reasoning: '' });
  assert.deepEqual((next?.messages as unknown[]).slice(-2), [
    { role: 'assistant', content: '{"a":1,' },
    { role: 'user', content: CONTINUE_TEXT },
  ]);
});

test('thoughts alone go back inside the instruction; nothing at all asks afresh', () => {
  const next = continuationBody(body, { text: '', reasoning: 'Let me see' });
  const last = (next?.messages as { role: string; content: string }[]).at(-1);
  assert.equal(last?.role, 'user');
  assert.match(last?.content ?? '', /still thinking[\s\S]*Let me see/);
  assert.deepEqual(continuationBody(body, { text: '', reasoning: '' }), body);
  // Blank text is no answer begun: no blank assistant message goes up (Google's API refuses one).
  assert.deepEqual(continuationBody(body, { text: '\n\n', reasoning: '' }), body);
  const afterThoughts = continuationBody(body, { text: ' ', reasoning: 'Let me see' });
  assert.deepEqual(
    (afterThoughts?.messages as { role: string }[]).map((message) => message.role),
    ['system', 'user', 'user'],
  );
  assert.equal(continuationBody({ prompt: 'x' }, { text: 'a', reasoning: '' }), null);
});

test('the continuation is sized with what it carries back', () => {
  const needs = { input: 100, output: 50, tools: true, images: false };
  const grown = continuationNeeds(needs, { text: 'x'.repeat(450), reasoning: '' });
  assert.ok(grown.input >= 200 && grown.input < 260, String(grown.input));
  assert.equal(grown.output, 50);
});
