import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestClock } from '../test-support/test-clock.js';
import { DeadlineWatch, type Deadlined } from './deadline-watch.js';

/** The test's time: it moves, and the watch's timer fires, only with `advance`. */
const clock = new TestClock(1_000_000);

/** An item due `ms` from now that records when it fired. */
function item(ms: number, fired: string[], name: string): Deadlined & { dueAt: number } {
  return {
    dueAt: clock.now() + ms,
    onDue() {
      fired.push(name);
    },
  };
}

test('each item fires once, in deadline order, and leaves the watch', () => {
  const watch = new DeadlineWatch(clock);
  const fired: string[] = [];
  watch.watch(item(60, fired, 'late'));
  watch.watch(item(15, fired, 'early'));
  watch.watch(item(5_000, fired, 'far'));
  clock.advance(35);
  assert.deepEqual(fired, ['early']);
  clock.advance(60);
  assert.deepEqual(fired, ['early', 'late']);
  assert.equal(watch.size, 1, 'the far one is still watched');
});

test('a deadline moved later is not fired early; one moved earlier is', () => {
  const watch = new DeadlineWatch(clock);
  const fired: string[] = [];
  const moving = item(20, fired, 'moving');
  watch.watch(moving);
  moving.dueAt = clock.now() + 70;
  clock.advance(45);
  assert.deepEqual(fired, [], 'the timer fired at 20 ms, found it not due and re-armed');
  clock.advance(50);
  assert.deepEqual(fired, ['moving']);

  const sooner = item(5_000, fired, 'sooner');
  const entry = watch.watch(sooner);
  sooner.dueAt = clock.now() + 10;
  watch.moved(entry);
  clock.advance(40);
  assert.deepEqual(fired, ['moving', 'sooner']);
});

test('an unwatched item never fires', () => {
  const watch = new DeadlineWatch(clock);
  const fired: string[] = [];
  const gone = item(10, fired, 'gone');
  const entry = watch.watch(gone);
  watch.unwatch(entry);
  watch.unwatch(entry);
  clock.advance(40);
  assert.deepEqual(fired, []);
  assert.equal(watch.size, 0);
});

test('an item that never comes due (Infinity) stays until unwatched, and others still fire', () => {
  const watch = new DeadlineWatch(clock);
  const fired: string[] = [];
  const idle = item(10, fired, 'idle');
  const entry = watch.watch(idle);
  idle.dueAt = Infinity;
  watch.watch(item(20, fired, 'due'));
  clock.advance(50);
  assert.deepEqual(fired, ['due']);
  assert.equal(watch.size, 1);
  watch.unwatch(entry);
  assert.equal(watch.size, 0);
});

test('items leave from anywhere in the list, and the rest still fire', () => {
  const watch = new DeadlineWatch(clock);
  const fired: string[] = [];
  const entries = ['a', 'b', 'c', 'd'].map((name) => watch.watch(item(15, fired, name)));
  const [first, second, , last] = entries;
  if (!first || !second || !last) throw new Error('four entries');
  watch.unwatch(second);
  watch.unwatch(last);
  watch.unwatch(first);
  assert.equal(watch.size, 1);
  clock.advance(45);
  assert.deepEqual(fired, ['c']);
  assert.equal(watch.size, 0);
});
