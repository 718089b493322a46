/**
 * An error's words that change what its status means. A status alone says too little for some providers:
 * OpenRouter's 403 for a flagged prompt is not a refused key, Google's 400 for a bad key is not the
 * client's request, Groq's 400 `tool_use_failed` is the model's broken tool call, a 400 or 403 that names the
 * caller's country is the provider refusing this network location, and OpenRouter's 429 for a free model's
 * saturated upstream pool is not the user's key limit. Pure, table-tested.
 */
import type { FailureKind } from './failure-kinds.js';
import { htmlStart } from './html-start.js';

/** OpenRouter's moderation 403: "Your input was flagged", with `metadata.reasons`. */
const MODERATION = /requires moderation|input was flagged/i;
/** Google's refused key, which its OpenAI-compatible endpoint answers with 400 INVALID_ARGUMENT. */
const KEY_REFUSED = /API_KEY_INVALID|API key not valid|API key expired|API_KEY_EXPIRED/i;
/**
 * A provider that does not serve the caller's location: Google's 400 FAILED_PRECONDITION ("User location is
 * not supported", "free tier is not available in your country") and OpenAI's 403
 * `unsupported_country_region_territory`.
 */
const REGION_REFUSED =
  /User location is not supported|not available in your (?:country|region)|unsupported_country_region_territory|Country, region,? or territory not supported/i;
/** Groq's code for a tool call the model wrote wrong (`failed_generation` holds it). */
const TOOL_USE_FAILED = /"code"\s*:\s*"tool_use_failed"/;

/**
 * The kind a refusal's words make of its status, or null when its status says it all.
 *
 * @example kindFromWords(400, '[{"error":{"message":"API key not valid. …","status":"INVALID_ARGUMENT"}}]') // 'auth_error'
 * @example kindFromWords(403, '{"error":{"message":"… Your input was flagged for \\"violence\\"."}}') // 'invalid_request'
 * @example kindFromWords(400, '{"error":{"message":"User location is not supported for the API use."}}') // 'region_refused'
 */
export function kindFromWords(status: number, body: string): FailureKind | null {
  if ((status === 400 || status === 403 || status === 451) && REGION_REFUSED.test(body))
    return 'region_refused';
  if (status === 403) {
    // A flagged prompt is this request's; another model may take it, and the key is fine.
    if (MODERATION.test(body)) return 'invalid_request';
    // A CDN's or firewall's block page names no key: a timed failure, not a block until the key changes.
    if (htmlStart(body.trimStart().slice(0, 16).toLowerCase()) === 'html') return 'html_maintenance';
    return null;
  }
  if (status === 400 && KEY_REFUSED.test(body)) return 'auth_error';
  if (status >= 400 && status < 500 && TOOL_USE_FAILED.test(body)) return 'invalid_tool_call';
  return null;
}

/** An aggregator's 429 for the model's upstream, not the key: OpenRouter's "rate-limited upstream". */
const UPSTREAM_POOL = /rate-limited upstream|"limit_source"\s*:\s*"upstream|"provider_name"\s*:\s*"[^"]/i;

/**
 * True when a 429 is about one model's upstream pool rather than the key's own limit: the pause is that
 * model's, whatever the provider's quota scope, and another key meets the same pool.
 *
 * @example upstreamPoolLimit('{"error":{"metadata":{"raw":"x:free is temporarily rate-limited upstream."}}}') // true
 */
export function upstreamPoolLimit(body: string): boolean {
  return UPSTREAM_POOL.test(body);
}
