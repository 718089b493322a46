import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_EPOCH, TestClock } from './test-clock.js';

test('the clock stands still until advanced; timers run in due order with the clock at their due time', () => {
  const clock = new TestClock();
  const seen: string[] = [];
  clock.setTimeout(() => seen.push(`b@${clock.now() - TEST_EPOCH}`), 200);
  clock.setTimeout(() => seen.push(`a@${clock.now() - TEST_EPOCH}`), 100);
  clock.setTimeout(() => seen.push(`c@${clock.now() - TEST_EPOCH}`), 200);
  assert.equal(clock.now(), TEST_EPOCH);
  clock.advance(150);
  assert.deepEqual(seen, ['a@100']);
  assert.equal(clock.now(), TEST_EPOCH + 150);
  clock.advance(50);
  assert.deepEqual(seen, ['a@100', 'b@200', 'c@200']);
  assert.equal(clock.pending(), 0);
});

test('a timer set by a timer runs in the same advance when it falls due within it', () => {
  const clock = new TestClock(0);
  const seen: number[] = [];
  clock.setTimeout(() => {
    seen.push(clock.now());
    clock.setTimeout(() => seen.push(clock.now()), 30);
  }, 10);
  clock.advance(39);
  assert.deepEqual(seen, [10]);
  clock.advance(1);
  assert.deepEqual(seen, [10, 40]);
});

test('an interval repeats until cleared; a cleared timeout never runs', () => {
  const clock = new TestClock(0);
  const ticks: number[] = [];
  const interval = clock.setInterval(() => ticks.push(clock.now()), 25);
  const never = clock.setTimeout(() => ticks.push(-1), 10);
  clock.clearTimeout(never);
  clock.advance(80);
  assert.deepEqual(ticks, [25, 50, 75]);
  clock.clearInterval(interval);
  clock.advance(100);
  assert.deepEqual(ticks, [25, 50, 75]);
  assert.equal(clock.nextDueIn(), null);
});

test('set moves to a time: forward runs what falls due, backward runs nothing', () => {
  const clock = new TestClock(1000);
  let fired = 0;
  clock.setTimeout(() => (fired += 1), 500);
  clock.set(900);
  assert.equal(clock.now(), 900);
  assert.equal(clock.nextDueIn(), 600);
  clock.set(1500);
  assert.equal(fired, 1);
});

test('advanceSettling lets a timer set after an await fall due in the same window; advance does not', async () => {
  for (const settling of [false, true]) {
    const clock = new TestClock(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      void Promise.resolve().then(() => clock.setTimeout(() => seen.push(clock.now()), 20));
    }, 10);
    if (settling) await clock.advanceSettling(50);
    else clock.advance(50);
    await Promise.resolve();
    assert.deepEqual(seen, settling ? [30] : [], `settling: ${settling}`);
    assert.equal(clock.now(), 50);
  }
});
