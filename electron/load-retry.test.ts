import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DashboardRetry,
  isDashboardLoadFailure,
  retryDelayMs,
  retryPageUrl,
  type LoadFailure,
} from './load-retry.js';
import { TestClock } from '../router/test-support/test-clock.js';

const refused: LoadFailure = {
  errorCode: -102,
  errorDescription: 'ERR_CONNECTION_REFUSED',
  url: 'http://127.0.0.1:19280/',
  isMainFrame: true,
};

function pageText(url: string): string {
  assert.ok(url.startsWith('data:text/html;charset=utf-8,'));
  return decodeURIComponent(url.slice('data:text/html;charset=utf-8,'.length));
}

function setUp(): {
  retry: DashboardRetry;
  loads: string[];
  pages: string[];
  time: TestClock;
} {
  const time = new TestClock(1_000_000);
  const loads: string[] = [];
  const pages: string[] = [];
  const retry = new DashboardRetry({
    time,
    load: (url) => loads.push(url),
    showPage: (url) => pages.push(url),
  });
  return { retry, loads, pages, time };
}

test('only a failure of the dashboard page itself counts', () => {
  assert.equal(isDashboardLoadFailure(refused), true);
  assert.equal(isDashboardLoadFailure({ ...refused, isMainFrame: false }), false);
  assert.equal(isDashboardLoadFailure({ ...refused, errorCode: -3, errorDescription: 'ERR_ABORTED' }), false);
  assert.equal(isDashboardLoadFailure({ ...refused, url: 'data:text/html,x' }), false);
});

test('the delay doubles from 1 s and stops growing at 30 s', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 50].map(retryDelayMs),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
  );
});

test('a failed load shows the local page, then reloads the dashboard when the delay is up', async () => {
  const { retry, loads, pages, time } = setUp();
  retry.failed(refused);
  assert.equal(pages.length, 1);
  const text = pageText(pages[0] ?? '');
  assert.match(text, /http:\/\/127\.0\.0\.1:19280\//);
  assert.match(text, /ERR_CONNECTION_REFUSED/);
  assert.match(text, /Trying again in 1 second\./);
  assert.match(text, /default-src 'none'/);
  assert.doesNotMatch(text, /<script/i);
  await time.advanceSettling(999);
  assert.deepEqual(loads, []);
  await time.advanceSettling(1);
  assert.deepEqual(loads, ['http://127.0.0.1:19280/']);
});

test('failing again waits longer; a successful load starts over from 1 s', async () => {
  const { retry, loads, pages, time } = setUp();
  retry.failed(refused);
  await time.advanceSettling(1000);
  retry.failed(refused);
  assert.match(pageText(pages[1] ?? ''), /Trying again in 2 seconds\./);
  await time.advanceSettling(1999);
  assert.equal(loads.length, 1);
  await time.advanceSettling(1);
  assert.equal(loads.length, 2);
  retry.loaded(pages[1] ?? '');
  retry.failed(refused);
  assert.match(pageText(pages[2] ?? ''), /in 4 seconds/, 'the local page loading is no success');
  retry.loaded('http://127.0.0.1:19280/');
  retry.failed(refused);
  assert.match(pageText(pages[3] ?? ''), /in 1 second\./);
});

test('cancel drops the pending reload; only one reload is ever pending', async () => {
  const { retry, loads, time } = setUp();
  retry.failed(refused);
  retry.failed(refused);
  assert.equal(time.pending(), 1);
  retry.cancel();
  await time.advanceSettling(60_000);
  assert.deepEqual(loads, []);
});

test('the page escapes what it shows', () => {
  const text = pageText(retryPageUrl({ ...refused, url: 'http://127.0.0.1:1/<b>"x"</b>' }, 1000));
  assert.ok(text.includes('http://127.0.0.1:1/&lt;b&gt;&quot;x&quot;&lt;/b&gt;'));
});
