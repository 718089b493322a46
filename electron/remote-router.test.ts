import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RouterEvent } from '../router/index.js';
import { startFakeUpstream } from '../router/test-support/fake-upstream.js';
import { httpRequest } from '../router/test-support/http-client.js';
import { startHarness } from '../router/test-support/router-harness.js';
import { scenarioConfig } from '../router/test-support/scenario.js';
import { attachedSource, parseEvent } from './remote-router.js';
import { startFakeRouter } from './testing/fake-router-server.js';
import { ioTurns } from '../router/test-support/deferred.js';
import { TestClock } from '../router/test-support/test-clock.js';
import { entry, model, snapshot } from './testing/fixtures.js';

/**
 * Until `check` holds: a few rounds of the event loop (the stream is real), then a step of the source's
 * clock, for its reconnect pause; bounded by steps, not time.
 */
async function eventually(time: TestClock, check: () => boolean, what: string): Promise<void> {
  for (let step = 0; step < 200; step++) {
    if (check()) return;
    await ioTurns();
    time.advance(10);
  }
  assert.fail(`never saw ${what}`);
}

test('reads state and the last history entry of the running daemon', async () => {
  const fake = await startFakeRouter(snapshot([model('a/x')]));
  try {
    fake.history = [entry({ requestId: 'r2', servedModel: 'a/x' })];
    const source = attachedSource(fake.url);
    assert.equal(source.mode, 'attached');
    const reading = await source.read();
    assert.equal(reading?.state.models[0]?.key, 'a/x');
    assert.equal(reading?.lastEntry?.requestId, 'r2');
    assert.ok(fake.seen.includes('GET /api/history?limit=1'));
  } finally {
    await fake.close();
  }
});

test('follows the event stream and reports a lost connection, then reconnects', async () => {
  const fake = await startFakeRouter(snapshot([model('a/x')]));
  const time = new TestClock();
  const source = attachedSource(fake.url, { reconnectMs: 50, time });
  const seen: (RouterEvent | null)[] = [];
  const off = source.subscribe((event) => seen.push(event));
  try {
    await eventually(time, () => fake.streams() === 1, 'the stream to open');
    fake.push({ type: 'breaker', model: model('a/x', { state: 'OPEN' }) });
    fake.push({ type: 'router', paused: true });
    await eventually(time, () => seen.filter(Boolean).length === 2, 'two events');
    assert.deepEqual(
      seen.map((e) => e?.type ?? null),
      [null, 'breaker', 'router'],
    );
    fake.dropStreams();
    await eventually(time, () => fake.streams() === 1 && seen.length >= 5, 'the reconnect');
    assert.deepEqual(seen.slice(3, 5), [null, null], 'lost, then connected again');
  } finally {
    off();
    await fake.close();
  }
});

test('pauses through the API with the dashboard token', async () => {
  const fake = await startFakeRouter(snapshot([model('a/x')]));
  try {
    const source = attachedSource(fake.url);
    await source.setPaused(true);
    assert.equal(fake.state.paused, true);
    assert.equal((await source.read())?.state.paused, true);
    fake.token = 'rotated';
    // The token is fetched fresh for each call, so a restarted daemon's new token is picked up.
    await source.setPaused(false);
    assert.equal(fake.state.paused, false);
  } finally {
    await fake.close();
  }
});

test('an unreachable daemon reads as null and close only disconnects', async () => {
  const fake = await startFakeRouter(snapshot([]));
  const url = fake.url;
  const time = new TestClock();
  const source = attachedSource(url, { reconnectMs: 20, time });
  source.subscribe(() => undefined);
  await eventually(time, () => fake.streams() === 1, 'the stream to open');
  await source.close();
  await eventually(time, () => fake.streams() === 0, 'the stream to close');
  await fake.close();
  assert.equal(await source.read(), null);
  await assert.rejects(source.setPaused(true));
});

test('parseEvent accepts only the four router events, with a matching type', () => {
  assert.deepEqual(parseEvent('router', '{"type":"router","paused":true}'), { type: 'router', paused: true });
  assert.equal(parseEvent('router', '{"type":"breaker"}'), null);
  assert.equal(parseEvent('other', '{"type":"other"}'), null);
  assert.equal(parseEvent(undefined, '{"type":"router"}'), null);
  assert.equal(parseEvent('router', 'not json'), null);
});

test('a daemon started with --allow-remote: read, followed and paused with the token of its daemon.json', async () => {
  const upstream = await startFakeUpstream();
  const router = await startHarness({
    config: scenarioConfig(upstream, { providers: { alpha: ['m1'] } }),
    allowRemote: true,
  });
  const unsigned = attachedSource(router.url);
  const time = new TestClock();
  const source = attachedSource(router.url, { token: router.token, reconnectMs: 50, time });
  const seen: (RouterEvent | null)[] = [];
  const off = source.subscribe((event) => seen.push(event));
  try {
    assert.equal(await unsigned.read(), null, 'reads want the token');
    assert.equal((await source.read())?.state.models[0]?.key, 'alpha/m1');
    await eventually(time, () => seen.length > 0, 'the event stream to open');
    await source.setPaused(true);
    await eventually(time, () => seen.some((event) => event?.type === 'router'), 'the pause event');
    assert.equal((await source.read())?.state.paused, true);

    // The window opens the page with the token in the fragment, which is never sent to any server.
    assert.equal(unsigned.pageUrl, `${router.url}/`);
    assert.equal(source.pageUrl, `${router.url}/#token=${encodeURIComponent(router.token)}`);
    const page = await httpRequest(source.pageUrl);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes(router.token), 'the page holds no token in remote mode');
  } finally {
    off();
    await source.close();
    await router.close();
    await upstream.close();
  }
});
