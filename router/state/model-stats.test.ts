import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelStatsBook } from './model-stats.js';

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
