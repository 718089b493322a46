import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LATENCY_TTL_MS, LATENCY_WINDOW, LatencyBook, percentile, tokensPerSecond } from './latency-book.js';
import { recordingLogger, withDir } from '../test-support/state-test-helpers.js';
import { TestClock } from '../test-support/test-clock.js';

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
