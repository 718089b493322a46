import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyFailure,
  PAYMENT_PAUSE_MS,
  REGION_PAUSE_MS,
  QUOTA_PAUSE_DEFAULT_MS,
  QUOTA_PAUSE_MAX_MS,
  type Classification,
  type FailureInput,
} from './failure-classifier.js';
import { FAILURE_KINDS, type FailureKind } from './failure-kinds.js';

const NOW = Date.UTC(2025, 5, 1, 10, 0, 0);
const http = (status: number, retryAfter: string | null = null, bodySnippet = ''): FailureInput => ({
  type: 'http',
  status,
  retryAfter,
  bodySnippet,
});
const content = (
  kind: Extract<FailureInput, { type: 'content' }>['kind'],
  errorCode: number | string | null = null,
  detail = '',
): FailureInput => ({
  type: 'content',
  kind,
  errorCode,
  detail,
});

type Defaulted = 'pause' | 'blockProviderAuth' | 'keyFault' | 'lesson' | 'outputLengthSuspect';
type Expect = Omit<Classification, Defaulted> & Partial<Pick<Classification, Defaulted>>;
const expect = (
  kind: FailureKind,
  blame: Classification['blame'],
  failover: boolean,
  healthDamage: boolean,
  clientStatus: number,
  extra: Partial<Classification> = {},
): Expect => ({ kind, blame, failover, healthDamage, clientStatus, ...extra });

function check(input: FailureInput, expected: Expect): void {
  const full: Classification = {
    pause: null,
    blockProviderAuth: false,
    keyFault: false,
    lesson: null,
    outputLengthSuspect: false,
    ...expected,
  };
  assert.deepEqual(classifyFailure(input, NOW), full, JSON.stringify(input));
}

const RATE_PAUSE = (ms: number, authoritative: boolean) => ({
  pause: { scope: 'model' as const, ms, authoritative },
  keyFault: true,
});
const AUTH = { blockProviderAuth: true, keyFault: true };
const PAYMENT = {
  pause: { scope: 'provider' as const, ms: PAYMENT_PAUSE_MS, authoritative: true },
  keyFault: true,
};
const SUSPECT = { outputLengthSuspect: true };
const REGION = { pause: { scope: 'provider' as const, ms: REGION_PAUSE_MS, authoritative: false } };

test("a refusal of the caller's location pauses the key, blames no model and is not handed to another key", () => {
  const location =
    '[{"error":{"code":400,"message":"User location is not supported for the API use.","status":"FAILED_PRECONDITION"}}]';
  check(http(400, null, location), expect('region_refused', 'none', true, false, 403, REGION));
  const country = '{"error":{"code":"unsupported_country_region_territory","type":"request_forbidden"}}';
  check(http(403, null, country), expect('region_refused', 'none', true, false, 403, REGION));
});

test('HTTP status rows', () => {
  const rows: Array<[number, Expect]> = [
    [401, expect('auth_error', 'provider', true, false, 401, AUTH)],
    [403, expect('auth_error', 'provider', true, false, 401, AUTH)],
    [402, expect('payment_required', 'provider', true, false, 402, PAYMENT)],
    [429, expect('rate_limit', 'model', true, false, 429, RATE_PAUSE(QUOTA_PAUSE_DEFAULT_MS, false))],
    [404, expect('model_not_found', 'model', true, true, 502)],
    [410, expect('model_not_found', 'model', true, true, 502)],
    [408, expect('timeout', 'provider', true, true, 504)],
    [400, expect('invalid_request', 'client', true, false, 400, SUSPECT)],
    [413, expect('invalid_request', 'client', true, false, 413, SUSPECT)],
    [422, expect('invalid_request', 'client', true, false, 422, SUSPECT)],
    [409, expect('invalid_request', 'client', true, false, 409, SUSPECT)],
    [451, expect('invalid_request', 'client', true, false, 451, SUSPECT)],
    [529, expect('overloaded', 'model', true, true, 503)],
    [500, expect('server_error', 'provider', true, true, 502)],
    [502, expect('server_error', 'provider', true, true, 502)],
    [503, expect('server_error', 'provider', true, true, 502)],
    [504, expect('server_error', 'provider', true, true, 502)],
    [599, expect('server_error', 'provider', true, true, 502)],
    [302, expect('server_error', 'provider', true, true, 502)],
  ];
  for (const [status, expected] of rows) check(http(status), expected);
});

test('429 pause from Retry-After: seconds, HTTP date, absent, 0, unparseable, huge', () => {
  const rate = (ms: number, authoritative: boolean) =>
    expect('rate_limit', 'model', true, false, 429, RATE_PAUSE(ms, authoritative));
  check(http(429, '30'), rate(30_000, true));
  check(http(429, '2.5'), rate(2500, true));
  check(http(429, new Date(NOW + 90_000).toUTCString()), rate(90_000, true));
  check(http(429, null), rate(QUOTA_PAUSE_DEFAULT_MS, false));
  check(http(429, '0'), rate(QUOTA_PAUSE_DEFAULT_MS, false));
  check(http(429, 'soon'), rate(QUOTA_PAUSE_DEFAULT_MS, false));
  check(http(429, new Date(NOW - 5000).toUTCString()), rate(QUOTA_PAUSE_DEFAULT_MS, false));
  check(http(429, '86400'), rate(QUOTA_PAUSE_MAX_MS, true));
  check(http(429, new Date(NOW + 86_400_000).toUTCString()), rate(QUOTA_PAUSE_MAX_MS, true));
});

test('429 without a usable header takes the body hint, not authoritative and capped', () => {
  const rate = (ms: number, authoritative: boolean) =>
    expect('rate_limit', 'model', true, false, 429, RATE_PAUSE(ms, authoritative));
  const body = '{"error":{"message":"Rate limit exceeded: free-models-per-min. Try again 23 seconds later"}}';
  check(http(429, null, body), rate(23_000, false));
  check(http(429, '0', body), rate(23_000, false));
  check(http(429, '5', body), rate(5000, true));
  check(http(429, null, 'try again in 5 hours'), rate(QUOTA_PAUSE_MAX_MS, false));
  check(http(429, null, 'try again in 0 seconds'), rate(QUOTA_PAUSE_DEFAULT_MS, false));
});

test('content kinds', () => {
  check(content('html_maintenance'), expect('html_maintenance', 'provider', true, true, 503));
  check(content('invalid_json'), expect('invalid_json', 'provider', true, true, 502));
  check(content('empty_choices'), expect('empty_choices', 'model', true, true, 502));
  check(content('empty_content'), expect('empty_content', 'model', true, true, 502));
  check(content('empty_stream'), expect('empty_stream', 'provider', true, true, 502));
  check(content('invalid_tool_call'), expect('invalid_tool_call', 'model', true, true, 502));
  // A forced tool call ignored: the model's, in its success rate, but no breaker damage.
  check(content('tool_choice_ignored'), expect('tool_choice_ignored', 'model', true, false, 502));
  check(
    content('error_payload', 500, 'Internal server error'),
    expect('error_payload', 'provider', true, true, 502),
  );
  check(
    content('error_payload', 'upstream_error', 'x'),
    expect('error_payload', 'provider', true, true, 502),
  );
  check(content('error_payload', null, ''), expect('error_payload', 'provider', true, true, 502));
});

test('an error payload that is really a rate limit, a refused key or an empty wallet', () => {
  const rate = (ms: number) => expect('rate_limit', 'model', true, false, 429, RATE_PAUSE(ms, false));
  check(content('error_payload', 429, 'Provider returned error'), rate(QUOTA_PAUSE_DEFAULT_MS));
  check(content('error_payload', '429', ''), rate(QUOTA_PAUSE_DEFAULT_MS));
  check(content('error_payload', null, 'Rate limit exceeded, try again in 12 seconds'), rate(12_000));
  check(content('error_payload', null, 'You exceeded your current quota'), rate(QUOTA_PAUSE_DEFAULT_MS));
  check(content('error_payload', 'x', 'Too Many Requests'), rate(QUOTA_PAUSE_DEFAULT_MS));
  check(content('error_payload', 'rate_limit_exceeded', 'slow down'), rate(QUOTA_PAUSE_DEFAULT_MS));
  check(content('error_payload', 401, 'bad key'), expect('auth_error', 'provider', true, false, 401, AUTH));
  check(
    content('error_payload', '403', 'forbidden'),
    expect('auth_error', 'provider', true, false, 401, AUTH),
  );
  check(
    content('error_payload', 402, 'no credit'),
    expect('payment_required', 'provider', true, false, 402, PAYMENT),
  );
});

test('an error payload whose code is a 4xx reads as that HTTP status with its words', () => {
  const words = "Invalid value for 'messages[0].role'";
  check(
    content('error_payload', 400, words),
    expect('invalid_request', 'client', true, false, 400, { said: words }),
  );
  check(
    content('error_payload', ' 422 ', words),
    expect('invalid_request', 'client', true, false, 422, { said: words }),
  );
  check(
    content('error_payload', '404', 'no such model'),
    expect('model_not_found', 'model', true, true, 502),
  );
  check(
    content('error_payload', 400, "This model's maximum context length is 8192 tokens"),
    expect('context_length', 'client', true, false, 400, {
      lesson: { type: 'ceiling', ceiling: 'context' },
      outputLengthSuspect: true,
      statedLimit: 8192,
    }),
  );
  check(
    content('error_payload', 403, 'Your input was flagged for violence'),
    expect('invalid_request', 'client', true, false, 403, {
      said: 'Your input was flagged for violence',
      outputLengthSuspect: true,
    }),
  );
  check(
    content('error_payload', 400, 'User location is not supported for the API use.'),
    expect('region_refused', 'none', true, false, 403, {
      pause: { scope: 'provider', ms: REGION_PAUSE_MS, authoritative: false },
    }),
  );
  // A 5xx code, a code that is no status, and none stay what they were.
  check(content('error_payload', 503, words), expect('error_payload', 'provider', true, true, 502));
  check(content('error_payload', '4000', words), expect('error_payload', 'provider', true, true, 502));
  check(content('error_payload', 400.5, words), expect('error_payload', 'provider', true, true, 502));
});

test('transport kinds', () => {
  const transport = (kind: Extract<FailureInput, { type: 'transport' }>['kind']): FailureInput => ({
    type: 'transport',
    kind,
  });
  check(transport('timeout'), expect('timeout', 'provider', true, true, 504));
  check(transport('body_timeout'), expect('body_timeout', 'provider', true, true, 504));
  check(transport('stream_stall'), expect('stream_stall', 'provider', true, true, 504));
  check(transport('network_error'), expect('network_error', 'provider', true, true, 502));
  check(transport('mid_stream_error'), expect('mid_stream_error', 'model', false, true, 502));
  check(transport('unfinished_stream'), expect('unfinished_stream', 'provider', true, true, 502));
  check(transport('client_aborted'), expect('client_aborted', 'none', false, false, 499));
  check(transport('budget_exhausted'), expect('budget_exhausted', 'none', false, false, 504));
  check(transport('hedge_lost'), expect('hedge_lost', 'none', false, false, 503));
  check(transport('router_stopping'), expect('router_stopping', 'none', false, false, 503));
  check(transport('proxy_refused'), expect('proxy_refused', 'none', true, false, 502));
});

test('every failure kind is reachable from some input', () => {
  const inputs: FailureInput[] = [
    ...[401, 402, 404, 408, 400, 429, 500, 529].map((status) => http(status)),
    ...[
      "This model's maximum context length is 8192 tokens",
      'Request too large for model on tokens per minute (TPM): Limit 6000, Requested 15234',
      'tools is not supported',
      'this model does not support images',
      'User location is not supported for the API use.',
    ].map((text): FailureInput => ({ type: 'http', status: 400, retryAfter: null, bodySnippet: text })),
    ...(
      [
        'html_maintenance',
        'invalid_json',
        'empty_choices',
        'empty_content',
        'error_payload',
        'empty_stream',
        'invalid_tool_call',
        'tool_choice_ignored',
      ] as const
    ).map((kind) => content(kind)),
    ...(
      [
        'timeout',
        'body_timeout',
        'stream_stall',
        'network_error',
        'proxy_refused',
        'mid_stream_error',
        'unfinished_stream',
        'client_aborted',
        'budget_exhausted',
        'hedge_lost',
        'router_stopping',
      ] as const
    ).map((kind): FailureInput => ({ type: 'transport', kind })),
  ];
  const seen = new Set(inputs.map((input) => classifyFailure(input, NOW).kind));
  // A local fault is the router's own: the engine records it without asking the classifier.
  const classified = FAILURE_KINDS.filter((kind) => kind !== 'internal_error');
  assert.deepEqual([...seen].sort(), [...classified].sort());
});

test('fit refusals teach the model a ceiling or a feature; a window refusal may be the output length', () => {
  const refusal = (bodySnippet: string): FailureInput => ({
    type: 'http',
    status: 400,
    retryAfter: null,
    bodySnippet,
  });
  check(
    refusal("This model's maximum context length is 8192 tokens"),
    expect('context_length', 'client', true, false, 400, {
      lesson: { type: 'ceiling', ceiling: 'context' },
      outputLengthSuspect: true,
      statedLimit: 8192,
    }),
  );
  check(
    refusal('Request too large for model on tokens per minute (TPM): Limit 6000, Requested 15234'),
    expect('over_tpm', 'client', true, false, 400, {
      lesson: { type: 'ceiling', ceiling: 'tpm' },
      statedLimit: 6000,
    }),
  );
  check(
    refusal('tools is not supported'),
    expect('no_tool_support', 'client', true, false, 400, { lesson: { type: 'feature', feature: 'tools' } }),
  );
  check(
    refusal('this model does not support images'),
    expect('no_image_support', 'client', true, false, 400, {
      lesson: { type: 'feature', feature: 'images' },
    }),
  );
});

test("only rate limits, payment failures and refused keys are the key's fault", () => {
  for (let status = 300; status < 600; status += 1) {
    const result = classifyFailure(http(status), NOW);
    assert.equal(result.keyFault, [401, 402, 403, 429].includes(status), String(status));
  }
});

test('only rate limits and payment failures pause; only auth failures block the key', () => {
  for (let status = 300; status < 600; status += 1) {
    const result = classifyFailure(http(status, '10'), NOW);
    assert.equal(result.pause !== null, status === 429 || status === 402, String(status));
    assert.equal(result.blockProviderAuth, status === 401 || status === 403, String(status));
    assert.equal(result.failover, true, String(status));
  }
});

test('a 400 that names another cause than the output length is not tried again without it', () => {
  const named = JSON.stringify({
    error: { message: "Unsupported parameter: 'tools'", type: 'invalid_request_error' },
  });
  check(
    http(400, null, named),
    expect('invalid_request', 'client', true, false, 400, { said: "Unsupported parameter: 'tools'" }),
  );
  const tokens = JSON.stringify({
    error: { message: 'max_tokens is too large: 32000', param: 'max_tokens' },
  });
  check(
    http(400, null, tokens),
    expect('invalid_request', 'client', true, false, 400, {
      ...SUSPECT,
      said: 'max_tokens is too large: 32000',
    }),
  );
});

test('a 429 whose body states its reset time (OpenRouter) is paused until then, on the provider’s word', () => {
  const reset = String(NOW + 45_000);
  const body = JSON.stringify({
    error: {
      message: 'Rate limit exceeded: free-models-per-minute. ',
      code: 429,
      metadata: { headers: { 'X-RateLimit-Reset': reset } },
    },
  });
  check(http(429, null, body), expect('rate_limit', 'model', true, false, 429, RATE_PAUSE(45_000, true)));
  check(http(429, '10', body), expect('rate_limit', 'model', true, false, 429, RATE_PAUSE(10_000, true)));
});

test('an invalid_request keeps the upstream’s own words for the client; other kinds keep none', () => {
  const body = JSON.stringify({
    error: { message: "Invalid value: 'wizard'. Supported values are: 'user'" },
  });
  assert.equal(
    classifyFailure(http(422, null, body), NOW).said,
    "Invalid value: 'wizard'. Supported values are: 'user'",
  );
  assert.equal(classifyFailure(http(400, null, ''), NOW).said, undefined);
  assert.equal(classifyFailure(http(500, null, body), NOW).said, undefined);
  assert.equal(classifyFailure(http(401, null, body), NOW).said, undefined);
});
