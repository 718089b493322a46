import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countMessagesTokens, estimateTokens } from './anthropic-count-tokens.js';
import { fixture } from './test-kit.js';

test('the estimate: a token per 4 characters, 4 per message, 1,600 per image', () => {
  assert.equal(estimateTokens([{ role: 'user', content: 'x'.repeat(40) }], []), 10 + 4);
  assert.equal(
    estimateTokens(
      [
        { role: 'system', content: 'abcd' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'abcdefgh' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'ab', arguments: 'cd' } }],
        },
      ],
      [],
    ),
    Math.ceil((4 + 8 + 4) / 4) + 3 * 4 + 1600,
  );
  const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } }];
  assert.equal(estimateTokens([], tools), Math.ceil(JSON.stringify(tools).length / 4));
});

test('count_tokens answers { input_tokens } for a Claude Code request, without max_tokens', () => {
  const { body } = fixture('claude-code-2.1.332.tool-result-turn.json');
  const { max_tokens: _max, stream: _stream, ...countBody } = body;
  const counted = countMessagesTokens(countBody);
  assert.ok(counted.ok);
  // Tool definitions dominate: some thousands of tokens, and more than the messages alone.
  assert.ok(counted.body.input_tokens > 1000, String(counted.body.input_tokens));
  const { tools: _tools, ...bare } = countBody;
  const messagesOnly = countMessagesTokens(bare);
  assert.ok(messagesOnly.ok);
  assert.ok(messagesOnly.body.input_tokens < counted.body.input_tokens);
  assert.deepEqual(Object.keys(counted.body), ['input_tokens']);
});

test('count_tokens refuses a body with no messages, naming the field', () => {
  const refused = countMessagesTokens({ model: 'fcm' });
  assert.ok(!refused.ok);
  assert.equal(refused.param, 'messages');
});
