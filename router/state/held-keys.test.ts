import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestClock } from '../test-support/test-clock.js';
import { HeldKeys, HOLD_MS, MAX_HELD } from './held-keys.js';

const KEY = { value: 'sk-1', index: 1, baseUrl: 'http://x/v1', headerDigests: { 'x-a': 'digest' } };

test('a removed key is held for HOLD_MS, taken once', () => {
  const clock = new TestClock();
  const held = new HeldKeys(clock.now);
  held.hold('groq', 'aaaaaaaaaaaa', KEY);
  clock.advance(HOLD_MS - 1);
  assert.deepEqual(held.take('groq', 'aaaaaaaaaaaa'), KEY);
  assert.equal(held.take('groq', 'aaaaaaaaaaaa'), null, 'taken once');
  held.hold('groq', 'aaaaaaaaaaaa', KEY);
  assert.equal(held.take('mistral', 'aaaaaaaaaaaa'), null, 'per provider');
  clock.advance(HOLD_MS);
  assert.equal(held.take('groq', 'aaaaaaaaaaaa'), null, 'gone after the hold');
});

test('at most MAX_HELD keys are held: the oldest goes first', () => {
  const held = new HeldKeys(new TestClock().now);
  for (let i = 0; i <= MAX_HELD; i++) held.hold('p', String(i).padStart(12, '0'), KEY);
  assert.equal(held.take('p', '000000000000'), null);
  assert.deepEqual(held.take('p', '000000000001'), KEY);
  assert.deepEqual(held.take('p', String(MAX_HELD).padStart(12, '0')), KEY);
});
