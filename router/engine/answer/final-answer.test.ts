/**
 * The answer when no model can take a request now, from the models out alone: 429 when rate limits are
 * what hold them (models out for good beside them are not waited for), 401 when every key is refused, else
 * 503 with Retry-After at the soonest return.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unavailableAnswer } from './final-answer.js';
import { outForGood, type ModelOut } from './models-out.js';

const NOW = 1_700_000_000_000;

const limited = (inMs: number): ModelOut => ({
  reason: 'quota_paused',
  rateLimited: true,
  backAt: NOW + inMs,
  forGood: false,
});
const open = (inMs: number): ModelOut => ({
  reason: 'circuit_open',
  rateLimited: false,
  backAt: NOW + inMs,
  forGood: false,
});

const cases: { name: string; outs: ModelOut[]; status: number; code: string; retry: number | null }[] = [
  {
    name: 'rate limits alone: 429 at the soonest end',
    outs: [limited(90_000), limited(30_000)],
    status: 429,
    code: 'rate_limit_exceeded',
    retry: 30,
  },
  {
    name: 'a rate limit beside a model too small for the request: 429 at the rate limit’s end',
    outs: [limited(60_000), outForGood('context_window')],
    status: 429,
    code: 'rate_limit_exceeded',
    retry: 60,
  },
  {
    name: 'a rate limit beside a provider switched off, no key and a refused key: 429',
    outs: [
      outForGood('provider_disabled'),
      limited(45_000),
      outForGood('missing_key'),
      outForGood('auth_error'),
    ],
    status: 429,
    code: 'rate_limit_exceeded',
    retry: 45,
  },
  {
    name: 'a rate limit beside an OPEN breaker: 503 at the soonest return',
    outs: [limited(60_000), open(20_000), outForGood('no_tool_support')],
    status: 503,
    code: 'all_models_unavailable',
    retry: 20,
  },
  {
    name: 'a rate limit beside a trial under way, back when it ends: 503',
    outs: [limited(60_000), { reason: 'half_open_busy', rateLimited: false, backAt: null, forGood: false }],
    status: 503,
    code: 'all_models_unavailable',
    retry: 60,
  },
  {
    name: 'a rate limit beside a 402’s pause: 503',
    outs: [
      limited(60_000),
      { reason: 'payment_required', rateLimited: false, backAt: NOW + 3_600_000, forGood: false },
    ],
    status: 503,
    code: 'all_models_unavailable',
    retry: 60,
  },
  {
    name: 'every key refused: 401',
    outs: [outForGood('auth_error'), outForGood('auth_error')],
    status: 401,
    code: 'invalid_api_key',
    retry: null,
  },
  {
    name: 'every model out for good otherwise: 503',
    outs: [outForGood('auth_error'), outForGood('provider_disabled')],
    status: 503,
    code: 'all_models_unavailable',
    retry: 30,
  },
];

for (const c of cases) {
  test(`nothing can take the request: ${c.name}`, () => {
    const answer = unavailableAnswer(c.outs, NOW);
    assert.deepEqual(
      { status: answer.status, code: answer.code, retry: answer.retryAfterSec },
      { status: c.status, code: c.code, retry: c.retry },
    );
    if (answer.status === 429) assert.match(answer.message, new RegExp(`try again in ${c.retry}s$`));
  });
}

test('a 429 beside models out for good names why those are not waited for', () => {
  const answer = unavailableAnswer([limited(60_000), outForGood('context_window')], NOW);
  assert.equal(
    answer.message,
    'fcm-router: every model of the set is rate-limited or at its free-tier budget, or cannot take this request (context_window); try again in 60s',
  );
});
