import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DeadlineWatch, type Deadlined } from './deadline-watch.js';

/** Mock timers from a fixed epoch: the watch's clock is `Date.now`, and both move only with `tick`. */
function fakeTime(t: TestContext): void {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
}

/** An item due `ms` from now that records when it fired. */
function item(ms: number, fired: string[], name: string): Deadlined & { dueAt: number } {
  return {
    dueAt: Date.now() + ms,
    onDue() {
      fired.push(name);
    },
  };
}

test('each item fires once, in deadline order, and leaves the watch', (t) => {
  fakeTime(t);
  const watch = new DeadlineWatch(() => Date.now());
  const fired: string[] = [];
  watch.watch(item(60, fired, 'late'));
  watch.watch(item(15, fired, 'early'));
  watch.watch(item(5_000, fired, 'far'));
  t.mock.timers.tick(35);
  assert.deepEqual(fired, ['early']);
  t.mock.timers.tick(60);
  assert.deepEqual(fired, ['early', 'late']);
  assert.equal(watch.size, 1, 'the far one is still watched');
});

test('a deadline moved later is not fired early; one moved earlier is', (t) => {
  fakeTime(t);
  const watch = new DeadlineWatch(() => Date.now());
  const fired: string[] = [];
  const moving = item(20, fired, 'moving');
  watch.watch(moving);
  moving.dueAt = Date.now() + 70;
  t.mock.timers.tick(45);
  assert.deepEqual(fired, [], 'the timer fired at 20 ms, found it not due and re-armed');
  t.mock.timers.tick(50);
  assert.deepEqual(fired, ['moving']);

  const sooner = item(5_000, fired, 'sooner');
  const entry = watch.watch(sooner);
  sooner.dueAt = Date.now() + 10;
  watch.moved(entry);
  t.mock.timers.tick(40);
  assert.deepEqual(fired, ['moving', 'sooner']);
});

test('an unwatched item never fires', (t) => {
  fakeTime(t);
  const watch = new DeadlineWatch(() => Date.now());
  const fired: string[] = [];
  const gone = item(10, fired, 'gone');
  const entry = watch.watch(gone);
  watch.unwatch(entry);
  watch.unwatch(entry);
  t.mock.timers.tick(40);
  assert.deepEqual(fired, []);
  assert.equal(watch.size, 0);
});

test('an item that never comes due (Infinity) stays until unwatched, and others still fire', (t) => {
  fakeTime(t);
  const watch = new DeadlineWatch(() => Date.now());
  const fired: string[] = [];
  const idle = item(10, fired, 'idle');
  const entry = watch.watch(idle);
  idle.dueAt = Infinity;
  watch.watch(item(20, fired, 'due'));
  t.mock.timers.tick(50);
  assert.deepEqual(fired, ['due']);
  assert.equal(watch.size, 1);
  watch.unwatch(entry);
  assert.equal(watch.size, 0);
});

test('items leave from anywhere in the list, and the rest still fire', (t) => {
  fakeTime(t);
  const watch = new DeadlineWatch(() => Date.now());
  const fired: string[] = [];
  const entries = ['a', 'b', 'c', 'd'].map((name) => watch.watch(item(15, fired, name)));
  const [first, second, , last] = entries;
  if (!first || !second || !last) throw new Error('four entries');
  watch.unwatch(second);
  watch.unwatch(last);
  watch.unwatch(first);
  assert.equal(watch.size, 1);
  t.mock.timers.tick(45);
  assert.deepEqual(fired, ['c']);
  assert.equal(watch.size, 0);
});
