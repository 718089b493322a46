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
  const result = refusalsBehind(order, (key) => refused.has(key));
  assert.deepEqual(
    result.order.map((candidate) => `${candidate.key}:${candidate.role}`),
    ['b:trial', 'd:normal', 'a:normal', 'c:normal'],
  );
  assert.deepEqual(result.behind, ['a', 'c']);
});

test('with none refused the order is the same array; with all refused it reads the same', () => {
  const none = refusalsBehind(order, () => false);
  assert.equal(none.order, order);
  assert.deepEqual(none.behind, []);
  const all = refusalsBehind(order, () => true);
  assert.deepEqual(all.order, order);
  assert.deepEqual(all.behind, ['a', 'b', 'c', 'd']);
});
