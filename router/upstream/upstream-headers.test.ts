import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRateLimitHeaders, parseResetMs } from './upstream-headers.js';

test('reset times in the forms providers write them', () => {
  assert.equal(parseResetMs('2m59.56s'), 179_560);
  assert.equal(parseResetMs('7.66s'), 7660);
  assert.equal(parseResetMs('250ms'), 250);
  assert.equal(parseResetMs('1h2m'), 3_720_000);
  assert.equal(parseResetMs('30'), 30_000);
  assert.equal(parseResetMs('soon'), null);
  assert.equal(parseResetMs('5s later'), null);
  assert.equal(parseResetMs(undefined), null);
});

test('remaining requests and tokens with their resets; none without the headers', () => {
  assert.deepEqual(
    parseRateLimitHeaders({
      'x-ratelimit-remaining-requests': '14',
      'x-ratelimit-reset-requests': '1m0s',
      'x-ratelimit-remaining-tokens': '0',
    }),
    { requests: { remaining: 14, resetMs: 60_000 }, tokens: { remaining: 0, resetMs: null } },
  );
  assert.equal(parseRateLimitHeaders({ 'x-ratelimit-remaining-requests': 'many' }), null);
  assert.equal(parseRateLimitHeaders({}), null);
});
