import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalsBehind } from './refusals-behind.js';
import type { RankedCandidate } from './ranking.js';

const order: RankedCandidate[] = [
  { key: 'a', role: 'normal' },
  { key: 'b', role: 'trial' },
  { key: 'c', role: 'normal' },
  { key: 'd', role: 'normal' },
];

test('the models that refused lately go behind the others, each group in its own order', () => {
  const refused = new Set(['a', 'c']);
  assert.deepEqual(
    refusalsBehind(order, (key) => refused.has(key)).map((candidate) => `${candidate.key}:${candidate.role}`),
    ['b:trial', 'd:normal', 'a:normal', 'c:normal'],
  );
});

test('with none refused the order is the same array; with all refused it reads the same', () => {
  assert.equal(
    refusalsBehind(order, () => false),
    order,
  );
  assert.deepEqual(
    refusalsBehind(order, () => true),
    order,
  );
});
