import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptGuard, ClientGone, type AbortKind } from './attempt-guard.js';
import { TestClock } from '../test-support/test-clock.js';
import { DeadlineWatch } from './deadline-watch.js';

/** The test's time: it moves, and the guard's deadlines fire, only with `advance`. */
const clock = new TestClock(1_000_000);

/** A guard bound to a target that records the reasons it is aborted with. */
function guarded(budgetMs: number, client = new ClientGone()): { guard: AttemptGuard; reasons: string[] } {
  const reasons: string[] = [];
  const guard = new AttemptGuard(client, budgetMs, new DeadlineWatch(clock));
  guard.bind({ abort: (reason) => reasons.push(reason.message) });
  return { guard, reasons };
}

test('the phase limit aborts with its own kind', () => {
  const { guard, reasons } = guarded(10_000);
  guard.phase('timeout', 20);
  clock.advance(60);
  assert.equal(guard.kind, 'timeout');
  assert.deepEqual(reasons, ['timeout']);
  guard.dispose();
});

test('the budget wins when it passes before the phase limit', () => {
  const { guard, reasons } = guarded(20);
  guard.phase('timeout', 10_000);
  clock.advance(60);
  assert.deepEqual(reasons, ['budget_exhausted']);
  guard.dispose();
});

test('a later phase with a shorter limit fires on time', () => {
  const { guard } = guarded(10_000);
  guard.phase('timeout', 5000);
  guard.phase('body_timeout', 20);
  clock.advance(60);
  assert.equal(guard.kind, 'body_timeout');
  guard.dispose();
});

test('touching pushes the idle limit back; clearing it stops it', () => {
  const { guard } = guarded(10_000);
  guard.phase('stream_stall', 40);
  for (let i = 0; i < 5; i += 1) {
    clock.advance(15);
    guard.touch();
  }
  assert.equal(guard.kind, null, 'chunks every 15 ms keep a 40 ms idle limit from firing');
  guard.clearPhase();
  clock.advance(80);
  assert.equal(guard.kind, null, 'no limit while the client drains');
  guard.phase('stream_stall', 20);
  clock.advance(60);
  assert.equal(guard.kind, 'stream_stall');
  guard.dispose();
});

test("a phase's reprieve, asked when its limit passes, moves it later or lets it abort", () => {
  const { guard, reasons } = guarded(10_000);
  guard.endBudget();
  const asked: number[] = [];
  const start = clock.now();
  // Two reprieves of 30 ms each, then none.
  guard.phase('stream_stall', 40, (now) => (asked.push(now - start) < 3 ? now + 30 : null));
  clock.advance(90);
  assert.deepEqual([asked, reasons], [[40, 70], []]);
  clock.advance(10);
  assert.deepEqual([asked, reasons], [[40, 70, 100], ['stream_stall']]);
  guard.dispose();
});

test('a reprieve that ends the attempt itself leaves nothing to abort; a new phase drops it', () => {
  const { guard, reasons } = guarded(10_000);
  guard.phase('stream_stall', 40, () => {
    guard.dispose();
    return null;
  });
  clock.advance(60);
  assert.deepEqual([guard.kind, reasons], [null, []]);
  const next = guarded(10_000);
  next.guard.phase('stream_stall', 40, (now) => now + 1000);
  next.guard.phase('timeout', 40);
  clock.advance(60);
  assert.deepEqual(next.reasons, ['timeout']);
  next.guard.dispose();
});

test('the budget ends at commit', () => {
  const { guard } = guarded(20);
  guard.endBudget();
  guard.phase('stream_stall', 10_000);
  clock.advance(60);
  assert.equal(guard.kind, null);
  guard.dispose();
});

test('the client leaving aborts at once, and only the first reason counts', () => {
  const client = new ClientGone();
  const { guard, reasons } = guarded(10_000, client);
  client.markGone();
  guard.abort('timeout');
  assert.deepEqual(reasons, ['client_aborted']);
  assert.equal(guard.kind, 'client_aborted');
  guard.dispose();
});

test('a client already gone aborts the target as soon as it is bound', () => {
  const client = new ClientGone();
  client.markGone();
  const { guard, reasons } = guarded(10_000, client);
  assert.deepEqual(reasons, ['client_aborted']);
  guard.dispose();
});

test('a disposed guard fires nothing and no longer watches the client', () => {
  const client = new ClientGone();
  const { guard, reasons } = guarded(20, client);
  guard.phase('timeout', 20);
  guard.dispose();
  guard.phase('stream_stall', 10);
  client.markGone();
  clock.advance(60);
  assert.deepEqual(reasons, []);
  assert.equal(guard.kind satisfies AbortKind | null, null);
});
