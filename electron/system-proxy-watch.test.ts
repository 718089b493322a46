import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { recordingLogger } from '../router/test-support/state-test-helpers.js';
import { TestClock } from '../router/test-support/test-clock.js';
import { PROVIDER_PROBE_URL } from './system-proxy.js';
import { PROXY_RECHECK_MS, proxyToTell, SystemProxyWatch, WAKE_EVENTS } from './system-proxy-watch.js';

test('a fresh answer is told only when it differs; no answer tells nothing', () => {
  assert.deepEqual(proxyToTell(null, 'http://proxy.corp:3128'), { proxy: 'http://proxy.corp:3128' });
  assert.deepEqual(proxyToTell('http://proxy.corp:3128', null), { proxy: null });
  assert.deepEqual(proxyToTell('http://a:1', 'http://b:2'), { proxy: 'http://b:2' });
  assert.equal(proxyToTell('http://a:1', 'http://a:1'), null);
  assert.equal(proxyToTell(null, null), null);
  assert.equal(proxyToTell('http://a:1', undefined), null, 'a failed resolve keeps the proxy');
});

/** A watch over a scripted system: `answer` is what Chromium says next (a throw when an Error). */
function watched(current: string | null) {
  const system = { answer: 'DIRECT' as string | Error, asked: [] as string[] };
  const told: (string | null)[] = [];
  const time = new TestClock();
  const wakes = new EventEmitter();
  const logger = recordingLogger();
  const watch = new SystemProxyWatch({
    resolveProxy: async (url) => {
      system.asked.push(url);
      if (system.answer instanceof Error) throw system.answer;
      return system.answer;
    },
    current,
    apply: (proxy) => {
      if (proxy === 'http://refused:1') throw new Error('the system proxy is not a proxy URL');
      told.push(proxy);
    },
    time,
    wakes,
    logger,
  });
  return { watch, system, told, time, wakes, logger };
}

test('every few minutes the proxy is resolved again; a change is told once, the same answer not at all', async () => {
  const { system, told, time } = watched('http://proxy.corp:3128');
  system.answer = 'PROXY proxy.corp:3128; DIRECT';
  await time.advanceSettling(PROXY_RECHECK_MS - 1);
  assert.deepEqual(system.asked, [], 'not before the interval');
  await time.advanceSettling(1);
  assert.deepEqual(system.asked, [PROVIDER_PROBE_URL]);
  assert.deepEqual(told, []);

  system.answer = 'DIRECT';
  await time.advanceSettling(PROXY_RECHECK_MS);
  assert.deepEqual(told, [null]);
  await time.advanceSettling(PROXY_RECHECK_MS);
  assert.deepEqual(told, [null], 'told once');

  system.answer = 'SOCKS5 127.0.0.1:1080';
  await time.advanceSettling(PROXY_RECHECK_MS);
  assert.deepEqual(told, [null, 'socks5://127.0.0.1:1080']);
  assert.equal(system.asked.length, 4);
});

test('a resolver that fails or throws changes nothing', async () => {
  const { system, told, time, watch } = watched(null);
  system.answer = new Error('no session');
  await time.advanceSettling(PROXY_RECHECK_MS);
  await watch.check();
  assert.equal(system.asked.length, 2);
  assert.deepEqual(told, []);
});

test('a proxy the router refuses is logged and left; the next check tries it again', async () => {
  const { system, told, logger, watch } = watched(null);
  system.answer = 'PROXY refused:1';
  await watch.check();
  assert.deepEqual(told, []);
  assert.deepEqual(logger.lines, [
    "warn the system's proxy could not be followed: the system proxy is not a proxy URL",
  ]);
  system.answer = 'PROXY proxy.corp:3128';
  await watch.check();
  assert.deepEqual(told, ['http://proxy.corp:3128']);
});

for (const event of WAKE_EVENTS) {
  test(`on ${event} the proxy is resolved again at once`, async () => {
    const { system, told, wakes, watch } = watched(null);
    system.answer = 'PROXY proxy.corp:3128';
    wakes.emit(event);
    await watch.check(); // the check the wake started
    assert.deepEqual(system.asked, [PROVIDER_PROBE_URL], 'one resolve: a check under way is not doubled');
    assert.deepEqual(told, ['http://proxy.corp:3128']);
  });
}

test('stopped, it clears its timer, leaves powerMonitor and tells nothing more', async () => {
  const { system, told, time, wakes, watch } = watched(null);
  system.answer = 'PROXY proxy.corp:3128';
  wakes.emit('resume');
  watch.stop();
  await time.advanceSettling(PROXY_RECHECK_MS * 3);
  for (const event of WAKE_EVENTS) assert.equal(wakes.listenerCount(event), 0, event);
  wakes.emit('unlock-screen');
  await watch.check();
  assert.deepEqual(told, [], 'the check under way when it stopped tells nothing');
  assert.equal(system.asked.length, 1, 'no timer fired');
});
