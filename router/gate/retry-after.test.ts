import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseResetStampFromText, parseRetryAfterMs, parseRetryHintFromText } from './retry-after.js';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

test('Retry-After in seconds, integer or decimal', () => {
  assert.equal(parseRetryAfterMs('23', NOW), 23_000);
  assert.equal(parseRetryAfterMs(' 0 ', NOW), 0);
  assert.equal(parseRetryAfterMs('1.5', NOW), 1500);
  assert.equal(parseRetryAfterMs('86400', NOW), 86_400_000);
});

test('Retry-After as an HTTP date, in each RFC form; past dates give 0', () => {
  assert.equal(parseRetryAfterMs('Wed, 15 Jan 2025 12:00:30 GMT', NOW), 30_000);
  assert.equal(parseRetryAfterMs('Wednesday, 15-Jan-25 12:01:00 GMT', NOW), 60_000);
  assert.equal(parseRetryAfterMs('Wed Jan 15 12:00:05 2025', NOW), 5000);
  assert.equal(parseRetryAfterMs('Tue, 14 Jan 2025 12:00:00 GMT', NOW), 0);
  assert.equal(parseRetryAfterMs('2025-01-15T12:00:10Z', NOW), 10_000);
});

test('absent or unparseable Retry-After gives null', () => {
  for (const value of [null, undefined, '', '   ', 'soon', '-5', '1e3', '12abc', 'Xyz, 99 Foo 2025', '1,5']) {
    assert.equal(parseRetryAfterMs(value, NOW), null, String(value));
  }
});

test('retry hints in error texts', () => {
  const cases: Array<[string, number | null]> = [
    ['Rate limit exceeded. Please try again in 23 seconds.', 23_000],
    ['Rate limit exceeded: free-models-per-min. Try again 23 seconds later', 23_000],
    ['Too many requests, retry after 23s', 23_000],
    ['Please try again in 1.5s. Visit https://platform.openai.com/account/rate-limits', 1500],
    ['Please try again in 2m59.56s.', 179_560],
    ['Please try again in 120ms', 120],
    ['You can retry in 5 minutes', 300_000],
    ['try again in 1 hour', 3_600_000],
    [
      '{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay": "17s"}]}}',
      17_000,
    ],
    // Gemini's words, to the nanosecond, before its RetryInfo detail.
    [
      'Quota exceeded for metric: generate_content_free_tier_requests. Please retry in 29.857423712s.',
      29_858,
    ],
    ['{"details":[{"retryDelay": "2.5s"}]}', 2500],
    ['Please try again later.', null],
    ['retry after 3 requests', null],
    ['Internal error', null],
    ['', null],
  ];
  for (const [text, expected] of cases) assert.equal(parseRetryHintFromText(text), expected, text);
});

test('the first usable hint wins', () => {
  assert.equal(parseRetryHintFromText('try again in a while; retry after 7 seconds'), 7000);
});

test('a reset time stated in the body, as OpenRouter’s 429 states it, in milliseconds or seconds', () => {
  const body = (reset: string): string =>
    JSON.stringify({
      error: {
        message: 'Rate limit exceeded: free-models-per-minute. ',
        code: 429,
        metadata: {
          headers: { 'X-RateLimit-Limit': '20', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset },
        },
      },
    });
  assert.equal(parseResetStampFromText(body(String(NOW + 42_000)), NOW), 42_000);
  assert.equal(parseResetStampFromText(body(String(NOW / 1000 + 60)), NOW), 60_000);
  assert.equal(parseResetStampFromText(body(String(NOW - 5000)), NOW), 0, 'a reset past is no wait');
  assert.equal(parseResetStampFromText(body('soon'), NOW), null);
  assert.equal(parseResetStampFromText('{"error":{"message":"Rate limit exceeded"}}', NOW), null);
});
