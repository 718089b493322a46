import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DesktopStatus } from './desktop-status.js';
import type { Notice } from './notification-throttle.js';
import type { TrayColour } from './tray-health.js';
import { TestClock } from '../router/test-support/test-clock.js';
import { fakeSource } from './testing/fake-source.js';
import { entry, model, snapshot } from './testing/fixtures.js';

function setup(notificationsOn = true) {
  const time = new TestClock(1_000_000);
  const colours: TrayColour[] = [];
  const notices: Notice[] = [];
  let enabled = notificationsOn;
  const status = new DesktopStatus({
    time,
    render: (view) => colours.push(view.colour),
    notify: (notice) => notices.push(notice),
    notificationsEnabled: () => enabled,
  });
  return { time, status, colours, notices, setEnabled: (on: boolean) => (enabled = on) };
}

test('starts grey, turns green on the first snapshot, amber after a trip, with a notification', async () => {
  const { time, status, colours, notices } = setup();
  assert.equal(status.view.colour, 'grey');
  const source = fakeSource(snapshot([model('a/x'), model('b/y')]));
  status.attach(source);
  await time.advanceSettling(0);
  assert.deepEqual(colours, ['green']);

  const tripped = model('a/x', {
    state: 'OPEN',
    openUntil: time.now() + 60_000,
    tripCount: 1,
    cooldownMs: 60_000,
  });
  source.state = snapshot([tripped, model('b/y')]);
  source.lastEntry = entry({ servedModel: 'b/y' });
  source.emit({ type: 'breaker', model: tripped });
  await time.advanceSettling(300);
  assert.deepEqual(colours, ['green', 'amber']);
  assert.match(status.view.tooltip, /1 of 2 models out \(1 OPEN\); next request goes to b\/y · last: b\/y$/);
  assert.equal(notices.length, 0);
  await time.advanceSettling(1500);
  assert.deepEqual(
    notices.map((n) => n.title),
    ['Model tripped: a/x'],
  );
});

test('a storm of events re-reads the router at most 4 times a second', async () => {
  const { time, status } = setup();
  const source = fakeSource(snapshot([model('a/x')]));
  status.attach(source);
  for (let i = 0; i < 1000; i++) {
    source.emit({ type: 'request', entry: entry() });
    if (i % 10 === 0) await time.advanceSettling(10);
  }
  await time.advanceSettling(1000);
  assert.ok(source.reads <= 6, `read ${source.reads} times in ~1 s`);
});

test('a cooldown ending refreshes the tray without any event', async () => {
  const { time, status, colours } = setup();
  const openUntil = time.now() + 30_000;
  const source = fakeSource(snapshot([model('a/x', { state: 'OPEN', openUntil }), model('b/y')]));
  status.attach(source);
  await time.advanceSettling(0);
  assert.deepEqual(colours, ['amber']);
  // The router lets the cooldown run out; the snapshot now says HALF_OPEN-eligible.
  await time.advanceSettling(29_000);
  assert.equal(source.reads, 1);
  source.state = snapshot([model('a/x'), model('b/y')]);
  await time.advanceSettling(2000);
  assert.equal(source.reads, 2);
  assert.deepEqual(colours, ['amber', 'green']);
});

test("a DEGRADED model's trial coming due refreshes the tray without any event", async () => {
  const { time, status, colours } = setup();
  const degraded = model('a/x', { state: 'DEGRADED', trialDueAt: time.now() + 30_000 });
  // Routing order: behind the CLOSED model until its trial is due, then at its own place.
  const source = fakeSource(snapshot([model('b/y'), degraded]));
  status.attach(source);
  await time.advanceSettling(0);
  assert.deepEqual(colours, ['green']);
  await time.advanceSettling(29_000);
  assert.equal(source.reads, 1);
  // The router emits nothing when the trial comes due.
  source.state = snapshot([degraded, model('b/y')]);
  await time.advanceSettling(2000);
  assert.equal(source.reads, 2);
  assert.deepEqual(colours, ['green', 'amber']);
  assert.match(status.view.statusLine, /^Next request goes to a trial of a\/x; 1 CLOSED behind it$/);
});

test('a lost daemon turns the tray red, and it recovers on reconnect', async () => {
  const { time, status, colours } = setup();
  const source = fakeSource(snapshot([model('a/x')]), 'attached');
  status.attach(source);
  await time.advanceSettling(0);
  source.reachable = false;
  source.emit(null);
  await time.advanceSettling(300);
  assert.equal(status.status.kind, 'stopped');
  assert.equal(status.view.statusLine, 'Router stopped (not reachable)');
  source.reachable = true;
  source.emit(null);
  await time.advanceSettling(300);
  assert.deepEqual(colours, ['green', 'red', 'green']);
});

test('paused routing is red; notifications switched off are dropped, not replayed later', async () => {
  const { time, status, colours, notices, setEnabled } = setup(false);
  const source = fakeSource(snapshot([model('a/x'), model('b/y')]));
  status.attach(source);
  await time.advanceSettling(0);
  source.state = snapshot([model('a/x', { state: 'OPEN', tripCount: 1 }), model('b/y')]);
  source.emit(null);
  await time.advanceSettling(2000);
  assert.equal(notices.length, 0);
  setEnabled(true);
  await source.setPaused(true);
  await time.advanceSettling(2000);
  assert.equal(notices.length, 0);
  assert.deepEqual(colours, ['green', 'amber', 'red']);
});

test('port taken and detach: the source is dropped and its events ignored', async () => {
  const { time, status, colours } = setup();
  const source = fakeSource(snapshot([model('a/x')]));
  status.attach(source);
  await time.advanceSettling(0);
  status.setStatus({ kind: 'port-taken', port: 19280, nextFreePort: 19281 });
  assert.equal(source.listeners(), 0);
  assert.equal(status.source, null);
  source.emit(null);
  await time.advanceSettling(1000);
  assert.deepEqual(colours, ['green', 'red']);
  assert.equal(status.view.statusLine, 'Port 19280 is in use by another program');
  status.dispose();
});
