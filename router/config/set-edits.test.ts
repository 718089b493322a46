import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConfigInput } from './schema.js';
import { withSetDeleted, withSetOrder, withSetRenamed, withSets } from './set-edits.js';

const SETS = { main: ['a/1', 'b/2'], fast: ['b/2'], spare: ['c/3'] };
const RAW: ConfigInput = {
  sets: SETS,
  activeSet: 'main',
  router: { failover: { maxAttempts: 2 }, ranking: { order: { fast: 'fastest' }, exploration: 0 } },
};

test('deleting a set removes it and its order, and nothing else', () => {
  const next = withSetDeleted(RAW, SETS, 'fast');
  assert.deepEqual(next.sets, { main: SETS.main, spare: SETS.spare });
  assert.deepEqual(next.router?.ranking, { order: {}, exploration: 0 });
  assert.deepEqual(next.router?.failover, { maxAttempts: 2 });
  assert.equal(next.activeSet, 'main');
});

test('renaming keeps the set’s place and order; the active set’s name follows', () => {
  const fast = withSetRenamed(RAW, SETS, 'fast', 'quick');
  assert.deepEqual(Object.keys(fast.sets ?? {}), ['main', 'quick', 'spare']);
  assert.deepEqual(fast.sets?.quick, SETS.fast);
  assert.deepEqual(fast.router?.ranking?.order, { quick: 'fastest' });
  assert.equal(fast.activeSet, 'main');
  assert.equal(withSetRenamed(RAW, SETS, 'main', 'work').activeSet, 'work');
});

test('a config without sets gets its derived default set written out when one is renamed or ordered', () => {
  const derived = { default: ['a/1'] };
  const renamed = withSetRenamed({}, derived, 'default', 'mine');
  assert.deepEqual(renamed.sets, { mine: ['a/1'] });
  assert.equal(renamed.activeSet, 'mine');
  assert.deepEqual(withSetOrder({}, derived, 'default', 'fastest').sets, derived);
});

test('an empty sets object is treated as no sets: the derived default set is written out', () => {
  const derived = { default: ['a/1'] };
  const renamed = withSetRenamed({ sets: {} }, derived, 'default', 'mine');
  assert.deepEqual(renamed.sets, { mine: ['a/1'] });
  assert.equal(renamed.activeSet, 'mine');
  assert.deepEqual(withSetOrder({ sets: {} }, derived, 'default', 'fastest').sets, derived);
  assert.deepEqual(withSets({ sets: {} }, derived), derived);
});

test('fastest is written for the set; priority, the default, by leaving it out', () => {
  const main = withSetOrder(RAW, SETS, 'main', 'fastest');
  assert.deepEqual(main.router?.ranking?.order, { fast: 'fastest', main: 'fastest' });
  assert.deepEqual(withSetOrder(main, SETS, 'fast', 'priority').router?.ranking?.order, { main: 'fastest' });
});

test('an edit that leaves no order writes no empty router, ranking or order the user never had', () => {
  const bare: ConfigInput = { sets: SETS, activeSet: 'main' };
  assert.deepEqual(withSetRenamed(bare, SETS, 'fast', 'quick'), {
    sets: { main: SETS.main, quick: SETS.fast, spare: SETS.spare },
    activeSet: 'main',
  });
  assert.deepEqual(withSetDeleted(bare, SETS, 'spare'), {
    sets: { main: SETS.main, fast: SETS.fast },
    activeSet: 'main',
  });
  assert.deepEqual(withSetOrder(bare, SETS, 'fast', 'priority'), bare);
  const failover: ConfigInput = { ...bare, router: { failover: { maxAttempts: 2 } } };
  assert.deepEqual(withSetRenamed(failover, SETS, 'spare', 'extra').router, { failover: { maxAttempts: 2 } });
});

test('an order the set already has returns the config itself: nothing to save, the default set stays derived', () => {
  const derived = { default: ['a/1'] };
  const bare: ConfigInput = {};
  assert.equal(withSetOrder(bare, derived, 'default', 'priority'), bare);
  assert.equal(withSetOrder(RAW, SETS, 'fast', 'fastest'), RAW);
  assert.equal(withSetOrder(RAW, SETS, 'main', 'priority'), RAW);
});
