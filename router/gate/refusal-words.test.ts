import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REFUSAL_WORDS_MAX, refusalWords, withoutSecret } from './refusal-words.js';

test('refusal words: the message of each error shape providers send', () => {
  const cases: [string, string][] = [
    [
      '{"error":{"message":"Invalid value: \'wizard\'","type":"invalid_request_error"}}',
      "Invalid value: 'wizard'",
    ],
    ['{"error":"tools is not supported"}', 'tools is not supported'],
    ['{"message":"Unknown field: reasoning"}', 'Unknown field: reasoning'],
    ['{"detail":"Model does not take images"}', 'Model does not take images'],
    [
      '{"detail":[{"loc":["body","messages",1,"role"],"msg":"Input should be \'user\'","type":"literal_error"}]}',
      "messages.1.role: Input should be 'user'",
    ],
    ['  Bad Request: tool_choice\n  must be auto  ', 'Bad Request: tool_choice must be auto'],
    // Google's OpenAI-compatible API.
    [
      '[{"error":{"code":400,"message":"Function call is missing a thought_signature","status":"INVALID_ARGUMENT"}}]',
      'Function call is missing a thought_signature',
    ],
  ];
  for (const [body, words] of cases) assert.equal(refusalWords(body), words, body);
});

test('refusal words: nothing from an empty body, an HTML page or JSON without a message', () => {
  for (const body of ['', '   ', '<html><body>400 Bad Request</body></html>', '{"error":{"code":400}}', '[]'])
    assert.equal(refusalWords(body), null, body);
});

test('refusal words: a body cut short gives its first whole message, never half of one', () => {
  const whole = JSON.stringify({
    error: { message: 'messages[3]: "name" is not allowed', param: 'x'.repeat(3000) },
  });
  assert.equal(refusalWords(whole.slice(0, 2048)), 'messages[3]: "name" is not allowed');
  const half = '{"error":{"message":"this message is cut sh';
  assert.equal(refusalWords(half), null);
});

test('refusal words: folded to one line and cut to the longest a message carries', () => {
  const long = JSON.stringify({ error: { message: 'word '.repeat(200) } });
  const words = refusalWords(long) ?? '';
  assert.equal(words.length, REFUSAL_WORDS_MAX);
  assert.ok(words.endsWith('…'));
  assert.ok(!words.includes('  '));
});

test('refusal words: the key the attempt sent is blotted out wherever it is quoted', () => {
  const key = 'sk-live-0123456789abcdef';
  assert.equal(
    withoutSecret(`key ${key} may not use tools; key ${key}`, key),
    'key [key] may not use tools; key [key]',
  );
  assert.equal(withoutSecret('no key here', null), 'no key here');
  assert.equal(withoutSecret('no key here', ''), 'no key here');
});
