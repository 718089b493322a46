import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FailureKind } from './failure-kinds.js';
import { kindFromWords, upstreamPoolLimit } from './status-words.js';

const OPENROUTER_FLAGGED =
  '{"error":{"code":403,"message":"openai/gpt-oss-20b:free requires moderation on OpenAI. Your input was flagged for \\"violence/graphic\\". No credits were charged.","metadata":{"reasons":["violence/graphic"]}}}';
const GOOGLE_BAD_KEY =
  '[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}]';
const GOOGLE_LOCATION =
  '[{"error":{"code":400,"message":"User location is not supported for the API use.","status":"FAILED_PRECONDITION"}}]';
const GOOGLE_FREE_TIER_COUNTRY =
  '{"error":{"code":400,"message":"Gemini API free tier is not available in your country. Please enable billing on your project in Google AI Studio.","status":"FAILED_PRECONDITION"}}';
const OPENAI_COUNTRY =
  '{"error":{"code":"unsupported_country_region_territory","message":"Country, region, or territory not supported","param":null,"type":"request_forbidden"}}';
const GROQ_TOOL_USE_FAILED =
  '{"error":{"message":"Failed to call a function. Please adjust your prompt. See \'failed_generation\' for more details.","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"<function=Bash>{\\"command\\": ls}"}}';

test('words that change what a status means', () => {
  const rows: Array<[number, string, FailureKind | null]> = [
    [403, OPENROUTER_FLAGGED, 'invalid_request'],
    [403, '\ufeff  <!DOCTYPE html><html><title>Attention Required! | Cloudflare</title>', 'html_maintenance'],
    [403, '<html><body>Blocked</body></html>', 'html_maintenance'],
    [403, '{"error":{"message":"Invalid API key"}}', null],
    [403, '', null],
    [400, GOOGLE_BAD_KEY, 'auth_error'],
    [400, '{"error":{"message":"API key expired. Please renew the API key."}}', 'auth_error'],
    [400, GROQ_TOOL_USE_FAILED, 'invalid_tool_call'],
    [400, '{"error":{"message":"Unsupported parameter: tools"}}', null],
    [400, GOOGLE_LOCATION, 'region_refused'],
    [400, GOOGLE_FREE_TIER_COUNTRY, 'region_refused'],
    [403, OPENAI_COUNTRY, 'region_refused'],
    [451, '{"error":{"message":"User location is not supported for the API use."}}', 'region_refused'],
    [429, GOOGLE_BAD_KEY, null],
    [500, GOOGLE_LOCATION, null],
    [500, GROQ_TOOL_USE_FAILED, null],
  ];
  for (const [status, body, kind] of rows)
    assert.equal(kindFromWords(status, body), kind, `${status} ${body}`);
});

test("an aggregator's 429 for the model's upstream pool, not the key's limit", () => {
  const upstream =
    '{"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"m:free is temporarily rate-limited upstream. Please retry shortly.","provider_name":"Venice","limit_source":"upstream_provider_shared_pool"}}}';
  assert.equal(upstreamPoolLimit(upstream), true);
  assert.equal(upstreamPoolLimit('{"error":{"metadata":{"provider_name":"Chutes"},"code":429}}'), true);
  const keyLimit =
    '{"error":{"message":"Rate limit exceeded: free-models-per-min.","code":429,"metadata":{"headers":{"X-RateLimit-Limit":"20"},"provider_name":null}}}';
  assert.equal(upstreamPoolLimit(keyLimit), false);
  assert.equal(upstreamPoolLimit(''), false);
});
