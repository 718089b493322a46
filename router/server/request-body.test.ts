import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exceedsJsonDepth } from './request-body.js';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

const bytes = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

test('depth counts objects and arrays alike, and scalars not at all', () => {
  assert.equal(exceedsJsonDepth(bytes('text'), 0), false);
  assert.equal(exceedsJsonDepth(bytes({}), 1), false);
  assert.equal(exceedsJsonDepth(bytes({}), 0), true);
  assert.equal(exceedsJsonDepth(bytes(nested(10)), 10), false);
  assert.equal(exceedsJsonDepth(bytes(nested(11)), 10), true);
});

test('a deep branch is found beside shallow ones, and any depth is read in one pass', () => {
  assert.equal(exceedsJsonDepth(bytes({ a: 1, b: [1, 2], c: nested(300) })), true);
  assert.equal(exceedsJsonDepth(Buffer.from('['.repeat(4_000_000) + ']'.repeat(4_000_000))), true);
  assert.equal(exceedsJsonDepth(bytes({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] })), false);
  // Siblings do not add up: depth comes back down as each closes.
  assert.equal(exceedsJsonDepth(bytes(Array.from({ length: 1000 }, () => nested(200)))), false);
});

test('brackets inside strings, escaped quotes included, are text, not nesting', () => {
  const text = { content: '[[[[{{{{ "quoted [" \\ ]]]] \u4e16\u754c', more: ['"[', '\\', '\\"{{'] };
  assert.equal(exceedsJsonDepth(bytes(text), 2), false);
  assert.equal(exceedsJsonDepth(bytes({ a: '['.repeat(1000), b: { c: ['x'] } }), 3), false);
  assert.equal(exceedsJsonDepth(bytes({ a: '\\', b: { c: [[['x']]] } }), 4), true);
});
