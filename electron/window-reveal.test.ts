import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestClock } from '../router/test-support/test-clock.js';
import { RevealGate } from './window-reveal.js';

function gate(): { gate: RevealGate; shown: () => number; time: TestClock } {
  const time = new TestClock(1_000_000);
  let shown = 0;
  return { gate: new RevealGate(() => shown++, time, 3000), shown: () => shown, time };
}

test('a window asked for before its first paint is shown on ready-to-show, not before', () => {
  const { gate: g, shown } = gate();
  g.request();
  assert.equal(shown(), 0);
  g.painted();
  assert.equal(shown(), 1);
});

test('once painted, a request shows the window at once', () => {
  const { gate: g, shown } = gate();
  g.painted();
  assert.equal(shown(), 0, 'painting alone shows nothing (a window opened hidden stays hidden)');
  g.request();
  g.request();
  assert.equal(shown(), 2);
});

test('a window that never paints is shown after the bound anyway, and only once', async () => {
  const { gate: g, shown, time } = gate();
  g.request();
  g.request();
  await time.advanceSettling(2999);
  assert.equal(shown(), 0);
  await time.advanceSettling(1);
  assert.equal(shown(), 1);
  g.painted();
  assert.equal(shown(), 1);
  assert.equal(time.pending(), 0);
});

test('a window closed before its first paint leaves no timer behind', async () => {
  const { gate: g, shown, time } = gate();
  g.request();
  g.dispose();
  await time.advanceSettling(10_000);
  assert.equal(shown(), 0);
  assert.equal(time.pending(), 0);
});
