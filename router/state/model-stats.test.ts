import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LATENCY_TTL_MS,
  LATENCY_WINDOW,
  LatencyBook,
  ModelStatsBook,
  percentile,
  tokensPerSecond,
} from './model-stats.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

test('no data: nulls and an empty sparkline', () => {
  const book = new ModelStatsBook();
  assert.deepEqual(book.get('a/m'), {
    attempts: 0,
    successes: 0,
    successRate: null,
    p50LatencyMs: null,
    recentLatencyMs: [],
  });
});

test('success rate and median over the recent attempts; failures stay out of the median', () => {
  const book = new ModelStatsBook();
  book.record('a/m', true, 300);
  book.record('a/m', false, 15_000);
  book.record('a/m', true, 100);
  book.record('a/m', true, 200);
  book.record('a/m', false, 5);
  const stats = book.get('a/m');
  assert.equal(stats.attempts, 5);
  assert.equal(stats.successes, 3);
  assert.equal(stats.successRate, 3 / 5);
  assert.equal(stats.p50LatencyMs, 200);
  assert.deepEqual(stats.recentLatencyMs, [300, 15_000, 100, 200, 5]);
  assert.equal(book.get('b/m').attempts, 0, 'models are kept apart');
});

test('only failures: a success rate of 0 and no median', () => {
  const book = new ModelStatsBook();
  book.record('a/m', false, 50);
  assert.equal(book.get('a/m').successRate, 0);
  assert.equal(book.get('a/m').p50LatencyMs, null);
});

test('the window is a ring: old attempts fall out and the sparkline shows the last 20, oldest first', () => {
  const book = new ModelStatsBook(30);
  for (let i = 1; i <= 100; i += 1) book.record('a/m', i > 90, i);
  const stats = book.get('a/m');
  assert.equal(stats.attempts, 30);
  assert.equal(stats.successes, 10);
  assert.equal(stats.p50LatencyMs, 95);
  assert.deepEqual(
    stats.recentLatencyMs,
    Array.from({ length: 20 }, (_, i) => 81 + i),
  );
});

test('a window smaller than the sparkline shows what it holds', () => {
  const book = new ModelStatsBook(3);
  for (const latency of [1, 2, 3, 4]) book.record('a/m', true, latency);
  assert.deepEqual(book.get('a/m').recentLatencyMs, [2, 3, 4]);
  assert.equal(book.get('a/m').p50LatencyMs, 3);
});

const T0 = 1_700_000_000_000;

function makeBook(file: string) {
  const time = new TestClock(T0);
  const book = new LatencyBook({
    file,
    time,
    debounceMs: 60_000,
    logger: recordingLogger(),
  });
  return { book, time };
}

test('a model without samples has no figures', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'latency.json'));
    assert.deepEqual(book.get('a/m'), {
      ttfbMs: null,
      ttfbP50Ms: null,
      ttfbP95Ms: null,
      tokensPerSec: null,
      samples: 0,
      lastAt: null,
    });
  });
});

test('the average decays toward new samples and the p95 is an observed value of the window', async () => {
  await withDir(async (dir) => {
    const { book } = makeBook(join(dir, 'latency.json'));
    book.record('a/m', { ttfbMs: 1000, tokensPerSec: 50 });
    assert.equal(book.get('a/m').ttfbMs, 1000);
    book.record('a/m', { ttfbMs: 2000, tokensPerSec: null });
    const figures = book.get('a/m');
    assert.equal(figures.ttfbMs, 1300); // 1000 + 0.3 × 1000
    assert.equal(figures.tokensPerSec, 50, 'a sample without usage keeps the rate');
    assert.equal(figures.ttfbP95Ms, 2000);
    assert.equal(figures.ttfbP50Ms, 1000, 'the median of 1000 and 2000 is an observed value: the lower');
    assert.equal(figures.samples, 2);
    for (let i = 0; i < LATENCY_WINDOW; i += 1) book.record('a/m', { ttfbMs: 100, tokensPerSec: null });
    assert.equal(book.get('a/m').ttfbP95Ms, 100, 'old samples leave the window');
    assert.equal(book.get('a/m').ttfbP50Ms, 100);
  });
});

test('figures survive a restart; stale and invalid entries are dropped', async () => {
  await withDir(async (dir) => {
    const file = join(dir, 'latency.json');
    const first = makeBook(file);
    first.book.record('a/m', { ttfbMs: 400, tokensPerSec: 20 });
    await first.book.close();
    const second = makeBook(file);
    await second.book.load();
    assert.equal(second.book.get('a/m').ttfbMs, 400);
    assert.equal(second.book.get('a/m').tokensPerSec, 20);

    const stale = { ttfbMs: 1, tokensPerSec: null, recent: [1], samples: 1, lastAt: T0 - LATENCY_TTL_MS - 1 };
    const body = { version: 1, savedAt: T0, models: { 'old/m': stale, 'bad/m': { ttfbMs: -1 } } };
    await writeFile(file, JSON.stringify(body));
    const third = makeBook(file);
    await third.book.load();
    assert.equal(third.book.get('old/m').samples, 0);
    assert.equal(third.book.get('bad/m').samples, 0);
  });
});

test('percentile and tokens per second', () => {
  assert.equal(percentile([], 0.95), null);
  assert.equal(percentile([5, 1, 3], 0.95), 5);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5), 5);
  assert.equal(tokensPerSecond(null, 100, 1100), null);
  assert.equal(tokensPerSecond(100, 100, 1100), 100, 'tokens over the time after the first byte');
  assert.equal(tokensPerSecond(50, 500, 500), 100, 'a whole answer: tokens over the whole time');
});
