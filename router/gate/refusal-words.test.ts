import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  REFUSAL_WORDS_MAX,
  SECRET_CUT_MIN,
  attemptSecrets,
  refusalWords,
  withoutSecrets,
} from './refusal-words.js';

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
    withoutSecrets(`key ${key} may not use tools; key ${key}`, [key]),
    'key [key] may not use tools; key [key]',
  );
  assert.equal(withoutSecrets('no key here', []), 'no key here');
  assert.equal(withoutSecrets('no key here', ['']), 'no key here');
});

test('refusal words: the front part of a key that ends cut words is blotted out, a short one is left', () => {
  const key = 'bce-v3/ALTAK-0123/4567';
  assert.equal(withoutSecrets(`bad key ${key.slice(0, 12)}`, [key]), 'bad key [key]');
  assert.equal(withoutSecrets(`bad key ${key.slice(0, 12)}…`, [key]), 'bad key [key]…');
  // Where it is not at the end, a front part is no cut key: only whole keys are blotted there.
  assert.equal(
    withoutSecrets(`bad key ${key.slice(0, 12)} refused`, [key]),
    `bad key ${key.slice(0, 12)} refused`,
  );
  const short = `bad key ${key.slice(0, SECRET_CUT_MIN - 1)}`;
  assert.equal(withoutSecrets(short, [key]), short);
});

test('refusal words: a key restored by decoding the JSON is blotted out of the decoded words', () => {
  const key = 'bce-v3/ALTAK-0123/4567';
  const body = JSON.stringify({ error: { message: `invalid key ${key}` } }).replaceAll('/', '\\/');
  assert.ok(!withoutSecrets(body, [key]).includes('[key]'), 'the raw body spells the key otherwise');
  assert.equal(withoutSecrets(refusalWords(body) ?? '', [key]), 'invalid key [key]');
});

test("refusal words: the secrets of an attempt are its key and its provider headers' values and their parts", () => {
  const headers = {
    'x-goog-api-key': 'AIza-header-key-1',
    authorization: 'Bearer sk-in-a-header',
    'x-n': '1',
  };
  assert.deepEqual(attemptSecrets('sk-main-key', headers), [
    'sk-main-key',
    'AIza-header-key-1',
    'Bearer sk-in-a-header',
    'sk-in-a-header',
  ]);
  assert.deepEqual(attemptSecrets(null, {}), []);
  assert.deepEqual(attemptSecrets('', { 'x-title': 'fcm-router' }), ['fcm-router']);
});
