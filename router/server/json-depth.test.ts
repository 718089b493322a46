import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exceedsJsonDepth } from './json-depth.js';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

test('depth counts objects and arrays alike, and scalars not at all', () => {
  assert.equal(exceedsJsonDepth('text', 0), false);
  assert.equal(exceedsJsonDepth({}, 1), false);
  assert.equal(exceedsJsonDepth({}, 0), true);
  assert.equal(exceedsJsonDepth(nested(10), 10), false);
  assert.equal(exceedsJsonDepth(nested(11), 10), true);
});

test('a deep branch is found beside shallow ones, and any depth is walked without recursion', () => {
  assert.equal(exceedsJsonDepth({ a: 1, b: [1, 2], c: nested(300) }), true);
  assert.equal(exceedsJsonDepth(nested(100_000)), true);
  assert.equal(exceedsJsonDepth({ model: 'fcm', messages: [{ role: 'user', content: 'hi' }] }), false);
});
