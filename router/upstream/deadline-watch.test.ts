import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestClock } from '../test-support/test-clock.js';
import type { Time, TimerHandle } from '../state/clock.js';
import { DeadlineWatch, LATE_FIRING_MS, type Deadlined } from './deadline-watch.js';

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

/** Time whose timers fire only when the test says, with the clock wherever the test put it: late, say. */
function handTime(): { time: Time; setNow(at: number): void; fireNext(): boolean; armed(): number } {
  let now = 1_000_000;
  const timers = new Map<number, () => void>();
  let nextId = 1;
  const set = (callback: () => void): TimerHandle => {
    timers.set(nextId, callback);
    return nextId++ as unknown as TimerHandle;
  };
  const clear = (handle: TimerHandle | null): void => {
    if (handle !== null) timers.delete(handle as unknown as number);
  };
  return {
    time: { now: () => now, setTimeout: set, clearTimeout: clear, setInterval: set, clearInterval: clear },
    setNow: (at) => {
      now = at;
    },
    fireNext: () => {
      const [id, callback] = timers.entries().next().value ?? [];
      if (id === undefined || callback === undefined) return false;
      timers.delete(id);
      callback();
      return true;
    },
    armed: () => timers.size,
  };
}

test('a late firing lets the sockets be read once before judging: an item settled meanwhile never fires', () => {
  const hand = handTime();
  const watch = new DeadlineWatch(hand.time);
  const fired: string[] = [];
  const answered = { dueAt: 1_000_100, onDue: () => fired.push('answered') };
  const entry = watch.watch(answered);
  hand.setNow(1_000_100 + LATE_FIRING_MS + 1);
  assert.ok(hand.fireNext());
  assert.equal(fired.length, 0, 'judged only after one more turn');
  assert.equal(hand.armed(), 1, 'a timer for that turn');
  watch.unwatch(entry); // the answer read from the socket in that turn
  assert.ok(hand.fireNext());
  assert.equal(fired.length, 0);
  assert.equal(hand.armed(), 0);
});

test('a late firing still judges what is overdue after that turn, once; an on-time one judges at once', () => {
  const hand = handTime();
  const watch = new DeadlineWatch(hand.time);
  const fired: string[] = [];
  watch.watch({ dueAt: 1_000_100, onDue: () => fired.push('hung') });
  hand.setNow(1_000_100 + 5_000);
  assert.ok(hand.fireNext());
  assert.equal(fired.length, 0);
  assert.ok(hand.fireNext());
  assert.deepEqual(fired, ['hung']);

  watch.watch({ dueAt: 1_006_000, onDue: () => fired.push('on time') });
  hand.setNow(1_006_000 + LATE_FIRING_MS);
  assert.ok(hand.fireNext());
  assert.deepEqual(fired, ['hung', 'on time']);
  assert.equal(hand.armed(), 0);
});
