import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCoalescer } from './throttle-updates.js';
import { TestClock } from '../router/test-support/test-clock.js';

test('a burst of events becomes one immediate run and one trailing run', async () => {
  const time = new TestClock(1_000_000);
  const runs: number[] = [];
  const coalescer = createCoalescer(() => void runs.push(time.now()), { maxPerSecond: 4, time });
  for (let i = 0; i < 50; i++) coalescer.poke();
  await time.advanceSettling(0);
  assert.deepEqual(runs, [1_000_000]);
  await time.advanceSettling(1000);
  assert.deepEqual(runs, [1_000_000, 1_000_250]);
});

test('never more than maxPerSecond runs under a steady stream of events', async () => {
  const time = new TestClock(1_000_000);
  let runs = 0;
  const coalescer = createCoalescer(() => void runs++, { maxPerSecond: 4, time });
  for (let ms = 0; ms < 10_000; ms += 10) {
    coalescer.poke();
    await time.advanceSettling(10);
  }
  assert.ok(runs <= 41, `ran ${runs} times in 10 s`);
  assert.ok(runs >= 39, `ran only ${runs} times in 10 s`);
});

test('after a quiet spell the next event runs at once', async () => {
  const time = new TestClock(1_000_000);
  const runs: number[] = [];
  const coalescer = createCoalescer(() => void runs.push(time.now()), { maxPerSecond: 4, time });
  coalescer.poke();
  await time.advanceSettling(5000);
  coalescer.poke();
  assert.deepEqual(runs, [1_000_000, 1_005_000]);
});

test('a slow async run is not overlapped; events during it cause exactly one more run', async () => {
  const time = new TestClock(1_000_000);
  let active = 0;
  let maxActive = 0;
  let runs = 0;
  let release: () => void = () => undefined;
  const coalescer = createCoalescer(
    () => {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      return new Promise<void>((resolve) => {
        release = () => {
          active--;
          resolve();
        };
      });
    },
    { maxPerSecond: 4, time },
  );
  coalescer.poke();
  await time.advanceSettling(1000);
  coalescer.poke();
  coalescer.poke();
  await time.advanceSettling(1000);
  assert.equal(runs, 1);
  release();
  await time.advanceSettling(1000);
  assert.equal(runs, 2);
  release();
  await time.advanceSettling(1000);
  assert.equal(runs, 2);
  assert.equal(maxActive, 1);
});

test('dispose cancels the pending run; a throwing run does not stop later ones', async () => {
  const time = new TestClock(1_000_000);
  let runs = 0;
  const coalescer = createCoalescer(
    () => {
      runs++;
      throw new Error('boom');
    },
    { maxPerSecond: 2, time },
  );
  coalescer.poke();
  await time.advanceSettling(0);
  coalescer.poke();
  await time.advanceSettling(600);
  assert.equal(runs, 2);
  coalescer.poke();
  coalescer.dispose();
  await time.advanceSettling(5000);
  assert.equal(runs, 2);
  assert.equal(time.pending(), 0);
});
