import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChatEncoder } from './chat-face.js';

type Call = { id: string; function: { arguments: string } };

/** A whole answer's tool calls, as the chat face writes them. */
function encoded(body: Record<string, unknown>): { text: string; calls: Call[] } {
  const text = String(new ChatEncoder().json({ text: JSON.stringify(body), body }));
  const parsed = JSON.parse(text) as { choices: [{ message: { tool_calls?: Call[] } }] };
  return { text, calls: parsed.choices[0].message.tool_calls ?? [] };
}

function answer(calls: Record<string, unknown>[]): Record<string, unknown> {
  const message = { role: 'assistant', content: null, tool_calls: calls };
  return { id: 'up', choices: [{ index: 0, message, finish_reason: 'tool_calls' }] };
}

test('a whole answer’s tool call without an id gets one; empty or missing arguments become {}', () => {
  const { calls } = encoded(
    answer([
      { type: 'function', function: { name: 'a', arguments: '' } },
      { type: 'function', id: '', function: { name: 'b' } },
      { type: 'function', id: 'up_1', function: { name: 'c', arguments: '{"x":1}' } },
    ]),
  );
  const [first, second, third] = calls;
  assert.match(String(first?.id), /^call_fcm_[0-9a-f]{24}_1$/);
  assert.equal(second?.id, String(first?.id).replace(/_1$/, '_2'), 'one stem for the answer, counted');
  assert.equal(third?.id, 'up_1', 'the upstream’s own id is kept');
  assert.deepEqual(
    calls.map((call) => call.function.arguments),
    ['{}', '{}', '{"x":1}'],
  );
  const again = encoded(answer([{ type: 'function', function: { name: 'a', arguments: '{}' } }]));
  assert.notEqual(again.calls[0]?.id, first?.id, 'each answer mints its own');
});

test('arguments sent as a JSON value (llama.cpp, TGI) go as its text, the string OpenAI defines', () => {
  const { calls } = encoded(
    answer([
      { id: 'a', type: 'function', function: { name: 'a', arguments: { command: 'rm -rf build' } } },
      { id: 'b', type: 'function', function: { name: 'b', arguments: 42 } },
    ]),
  );
  assert.deepEqual(
    calls.map((call) => call.function.arguments),
    ['{"command":"rm -rf build"}', '42'],
  );
  const legacy = { role: 'assistant', function_call: { name: 'a', arguments: { x: 1 } } };
  const body = { choices: [{ index: 0, message: legacy, finish_reason: 'function_call' }] };
  const text = String(new ChatEncoder().json({ text: JSON.stringify(body), body }));
  assert.match(text, /"arguments":"\{\\"x\\":1\}"/);
});

test('an answer whose tool calls are whole passes as its bytes came', () => {
  const text =
    '{"choices":[{"message":{"tool_calls":[{"id":"t","function":{"name":"f","arguments":"{}"}}]}}]}';
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.equal(new ChatEncoder().json({ text, body }), text);
  const plain = '{"choices":[{"message":{"content":"hi"}}]}';
  assert.equal(
    new ChatEncoder().json({ text: plain, body: JSON.parse(plain) as Record<string, unknown> }),
    plain,
  );
});
