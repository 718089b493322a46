import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitMaxTokens, withoutMaxTokens } from './max-tokens.js';

const body = { model: 'fcm', messages: [{ role: 'user', content: 'x' }], max_tokens: 32000 };

test('a max_tokens over the known output limit is clamped to it, on a copy, with a note', () => {
  const fit = fitMaxTokens(body, 8192);
  assert.equal(fit.body.max_tokens, 8192);
  assert.equal(fit.note, "max_tokens 32000 clamped to 8192 (the model's output limit)");
  assert.equal(body.max_tokens, 32000);
  assert.equal(fit.body.messages, body.messages);
});

test('within the limit, with no limit known, or with no field: the same body and no note', () => {
  for (const limit of [32000, 64000, null, 0, Number.NaN]) {
    const fit = fitMaxTokens(body, limit);
    assert.equal(fit.body, body, String(limit));
    assert.equal(fit.note, null);
  }
  const none = { model: 'fcm', messages: [] };
  assert.equal(fitMaxTokens(none, 100).body, none);
});

test('max_completion_tokens is clamped too', () => {
  const fit = fitMaxTokens({ model: 'm', max_completion_tokens: 50000, max_tokens: 100 }, 4096);
  assert.deepEqual(fit.body, { model: 'm', max_completion_tokens: 4096, max_tokens: 100 });
  assert.equal(fit.note, "max_completion_tokens 50000 clamped to 4096 (the model's output limit)");
});

test('the retry body leaves the fields out and says so', () => {
  const retry = withoutMaxTokens(body);
  assert.deepEqual(retry.body, { model: 'fcm', messages: body.messages });
  assert.equal(retry.note, 'max_tokens 32000 dropped (the model refused it)');
  const none = { model: 'fcm' };
  assert.deepEqual(withoutMaxTokens(none), { body: none, note: null });
});
