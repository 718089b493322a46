import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferred } from '../router/test-support/deferred.js';
import { delayDefault, QuitFlow } from './quit-flow.js';

function event(): { preventDefault(): void; prevented: boolean } {
  const e = {
    prevented: false,
    preventDefault() {
      e.prevented = true;
    },
  };
  return e;
}

function setUp(stopResult: Promise<void> = Promise.resolve()): {
  flow: QuitFlow;
  stops: number[];
  finished: () => number;
  errors: string[];
} {
  const stops: number[] = [];
  const errors: string[] = [];
  let finished = 0;
  const flow = new QuitFlow({
    stop: (graceMs) => (stops.push(graceMs), stopResult),
    finish: () => finished++,
    logError: (line) => errors.push(line),
    graceMs: 10_000,
    sessionEndGraceMs: 1000,
  });
  return { flow, stops, finished: () => finished, errors };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('the first quit is held until the router has stopped, then let through', async () => {
  const stopped = deferred();
  const { flow, stops, finished } = setUp(stopped.promise);
  const first = event();
  flow.beforeQuit(first);
  assert.equal(first.prevented, true);
  assert.deepEqual(stops, [10_000]);
  assert.equal(flow.phase, 'stopping');
  await settle();
  assert.equal(finished(), 0);
  stopped.resolve();
  await settle();
  assert.equal(finished(), 1);
  assert.equal(flow.phase, 'done');
  const second = event();
  flow.beforeQuit(second);
  assert.equal(second.prevented, false, 'the quit after the stop goes through');
});

test('quitting again while stopping stops nothing twice', async () => {
  const stopped = deferred();
  const { flow, stops } = setUp(stopped.promise);
  flow.beforeQuit(event());
  const again = event();
  flow.beforeQuit(again);
  assert.equal(again.prevented, true);
  assert.equal(stops.length, 1);
  stopped.resolve();
  await settle();
});

test('at the end of a session the stop gives in-flight requests only a short grace', async () => {
  const { flow, stops, finished } = setUp();
  flow.sessionEnding();
  flow.beforeQuit(event());
  assert.deepEqual(stops, [1000]);
  await settle();
  assert.equal(finished(), 1);
});

test('a stop that fails is logged and the app still quits', async () => {
  const { flow, finished, errors } = setUp(Promise.reject(new Error('disk full')));
  flow.beforeQuit(event());
  await settle();
  assert.deepEqual(errors, ['fcm-router: error while stopping: Error: disk full']);
  assert.equal(finished(), 1);
});

test("delayDefault cancels an untyped event's default and ignores anything else", () => {
  const e = event();
  delayDefault(e);
  assert.equal(e.prevented, true);
  for (const other of [undefined, null, 1, 'x', {}, { preventDefault: 1 }]) delayDefault(other);
});
