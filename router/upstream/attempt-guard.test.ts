import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptGuard, type AbortKind } from './attempt-guard.js';
import { ClientGone } from './client-gone.js';
import { DeadlineWatch } from './deadline-watch.js';

/** Mock timers from a fixed epoch: the watch's clock is `Date.now`, and both move only with `tick`. */
function fakeTime(t: TestContext): void {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
}

/** A guard bound to a target that records the reasons it is aborted with. */
function guarded(budgetMs: number, client = new ClientGone()): { guard: AttemptGuard; reasons: string[] } {
  const reasons: string[] = [];
  const guard = new AttemptGuard(client, budgetMs, new DeadlineWatch(() => Date.now()));
  guard.bind({ abort: (reason) => reasons.push(reason.message) });
  return { guard, reasons };
}

test('the phase limit aborts with its own kind', (t) => {
  fakeTime(t);
  const { guard, reasons } = guarded(10_000);
  guard.phase('timeout', 20);
  t.mock.timers.tick(60);
  assert.equal(guard.kind, 'timeout');
  assert.deepEqual(reasons, ['timeout']);
  guard.dispose();
});

test('the budget wins when it passes before the phase limit', (t) => {
  fakeTime(t);
  const { guard, reasons } = guarded(20);
  guard.phase('timeout', 10_000);
  t.mock.timers.tick(60);
  assert.deepEqual(reasons, ['budget_exhausted']);
  guard.dispose();
});

test('a later phase with a shorter limit fires on time', (t) => {
  fakeTime(t);
  const { guard } = guarded(10_000);
  guard.phase('timeout', 5000);
  guard.phase('body_timeout', 20);
  t.mock.timers.tick(60);
  assert.equal(guard.kind, 'body_timeout');
  guard.dispose();
});

test('touching pushes the idle limit back; clearing it stops it', (t) => {
  fakeTime(t);
  const { guard } = guarded(10_000);
  guard.phase('stream_stall', 40);
  for (let i = 0; i < 5; i += 1) {
    t.mock.timers.tick(15);
    guard.touch();
  }
  assert.equal(guard.kind, null, 'chunks every 15 ms keep a 40 ms idle limit from firing');
  guard.clearPhase();
  t.mock.timers.tick(80);
  assert.equal(guard.kind, null, 'no limit while the client drains');
  guard.phase('stream_stall', 20);
  t.mock.timers.tick(60);
  assert.equal(guard.kind, 'stream_stall');
  guard.dispose();
});

test('the budget ends at commit', (t) => {
  fakeTime(t);
  const { guard } = guarded(20);
  guard.endBudget();
  guard.phase('stream_stall', 10_000);
  t.mock.timers.tick(60);
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

test('a disposed guard fires nothing and no longer watches the client', (t) => {
  fakeTime(t);
  const client = new ClientGone();
  const { guard, reasons } = guarded(20, client);
  guard.phase('timeout', 20);
  guard.dispose();
  guard.phase('stream_stall', 10);
  client.markGone();
  t.mock.timers.tick(60);
  assert.deepEqual(reasons, []);
  assert.equal(guard.kind satisfies AbortKind | null, null);
});
