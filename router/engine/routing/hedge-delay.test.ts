import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hedgeDelayMs } from './hedge-delay.js';

const NO_FIGURES = { ttfbP95Ms: null };

test('no hedge while hedgeAfterMs is null, whatever the figures', () => {
  assert.equal(hedgeDelayMs({ hedgeAfterMs: null, requestTimeoutMs: 15_000 }, { ttfbP95Ms: 400 }), null);
});

test('a number is the delay as it is, below the request timeout', () => {
  assert.equal(hedgeDelayMs({ hedgeAfterMs: 300, requestTimeoutMs: 15_000 }, NO_FIGURES), 300);
  assert.equal(hedgeDelayMs({ hedgeAfterMs: 15_000, requestTimeoutMs: 15_000 }, NO_FIGURES), null);
});

test('auto is 3 x the model’s p95 time to first byte, at least 2 s', () => {
  const failover = { hedgeAfterMs: 'auto' as const, requestTimeoutMs: 15_000 };
  assert.equal(hedgeDelayMs(failover, { ttfbP95Ms: 1500 }), 4500);
  assert.equal(hedgeDelayMs(failover, { ttfbP95Ms: 200 }), 2000);
});

test('auto without a latency figure for the model means no hedge', () => {
  assert.equal(hedgeDelayMs({ hedgeAfterMs: 'auto', requestTimeoutMs: 15_000 }, NO_FIGURES), null);
});

test('auto gives no hedge when its delay would not come before the request timeout', () => {
  const failover = { hedgeAfterMs: 'auto' as const, requestTimeoutMs: 6000 };
  assert.equal(hedgeDelayMs(failover, { ttfbP95Ms: 1999 }), 5997);
  assert.equal(hedgeDelayMs(failover, { ttfbP95Ms: 2000 }), null);
  assert.equal(hedgeDelayMs({ hedgeAfterMs: 'auto', requestTimeoutMs: 2000 }, { ttfbP95Ms: 10 }), null);
});
