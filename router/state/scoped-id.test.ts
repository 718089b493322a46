import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scopedId } from './scoped-id.js';

test('a scoped name is the scope, " @" and the fingerprint, and the same string each time it is asked for', () => {
  const first = scopedId('groq/llama', '6f0b3c1d2e4a');
  assert.equal(first, 'groq/llama @6f0b3c1d2e4a');
  assert.equal(scopedId('groq/llama', '6f0b3c1d2e4a'), first);
  assert.equal(scopedId('groq/llama', ''), 'groq/llama @');
  assert.equal(scopedId('groq', '6f0b3c1d2e4a'), 'groq @6f0b3c1d2e4a');
});
