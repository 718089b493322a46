import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countMessagesTokens } from './anthropic-count-tokens.js';
import { fixture } from './test-kit.js';

test('count_tokens answers { input_tokens } for a Claude Code request, without max_tokens', () => {
  const { body } = fixture('claude-code-2.1.332.tool-result-turn.json');
  const { max_tokens: _max, stream: _stream, ...countBody } = body;
  const counted = countMessagesTokens(countBody, JSON.stringify(countBody).length);
  assert.ok(counted.ok);
  // Tool definitions dominate: some thousands of tokens, and more than the messages alone.
  assert.ok(counted.body.input_tokens > 1000, String(counted.body.input_tokens));
  const { tools: _tools, ...bare } = countBody;
  const messagesOnly = countMessagesTokens(bare, JSON.stringify(bare).length);
  assert.ok(messagesOnly.ok);
  assert.ok(messagesOnly.body.input_tokens < counted.body.input_tokens);
  assert.deepEqual(Object.keys(counted.body), ['input_tokens']);
});

test('count_tokens refuses a body with no messages, naming the field', () => {
  const refused = countMessagesTokens({ model: 'fcm' }, 15);
  assert.ok(!refused.ok);
  assert.equal(refused.param, 'messages');
});
