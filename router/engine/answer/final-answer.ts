import type { Classification } from '../../gate/failure-classifier.js';
import type { ErrorAnswer } from '../../faces/answer-encoder.js';
import { rateLimitsHold, soonestBackAt, type ModelOut } from './models-out.js';

/**
 * A refusal of the client's own request (`invalid_request_error`): bad body, unknown model, wrong method.
 * `param` names the request field at fault.
 */
export function clientError(
  status: number,
  code: string,
  message: string,
  param?: string | null,
): ErrorAnswer {
  const error: ErrorAnswer = { status, code, type: 'invalid_request_error', message, retryAfterSec: null };
  if (param !== undefined && param !== null) error.param = param;
  return error;
}

const clampRetry = (ms: number): number => Math.min(900, Math.max(1, Math.ceil(ms / 1000)));

/**
 * A rate limit's code: OpenAI's `rate_limit_exceeded`, which agents retry. `insufficient_quota` is OpenAI's
 * word for a plan out of credit, which Codex shows as a billing failure and does not retry.
 */
const RATE_LIMITED = 'rate_limit_exceeded';

/** A wait in the words agents read it from (Codex: "try again in 12s"). */
const tryAgainIn = (seconds: number): string => `try again in ${seconds}s`;

/**
 * When no model can take the request now: 429 with Retry-After at the soonest rate limit's end if rate
 * limits are what hold the models back (a 429's pause, a free-tier budget; models out for good beside them
 * are not waited for), 401 if every candidate's key is refused, else 503 with Retry-After at the soonest
 * moment a model is back (a cooldown's end, any pause's). Pure.
 */
export function unavailableAnswer(outs: readonly ModelOut[], now: number): ErrorAnswer {
  const reasons = new Set(outs.map((out) => out.reason));
  const soonest = soonestBackAt(outs);
  const retryAfterSec = soonest !== null ? clampRetry(soonest - now) : null;
  const listed = [...reasons].join(', ') || 'the set is empty';
  if (rateLimitsHold(outs)) return rateLimitedAnswer(outs, retryAfterSec ?? 60);
  if (outs.length > 0 && reasons.size === 1 && reasons.has('auth_error')) {
    return {
      status: 401,
      code: 'invalid_api_key',
      type: 'authentication_error',
      message:
        "fcm-router: every provider of the set refused its API key; fix the keys in the dashboard's Providers view",
      retryAfterSec: null,
    };
  }
  return {
    status: 503,
    code: 'all_models_unavailable',
    type: 'service_unavailable',
    message: `fcm-router: no model of the set can take a request now (${listed})`,
    retryAfterSec: retryAfterSec ?? (outs.length > 0 ? 30 : null),
  };
}

/** The 429 when rate limits hold the models back, naming why the others, out for good, are not waited for. */
function rateLimitedAnswer(outs: readonly ModelOut[], wait: number): ErrorAnswer {
  const others = [...new Set(outs.filter((out) => out.forGood).map((out) => out.reason))];
  const besides = others.length > 0 ? `, or cannot take this request (${others.join(', ')})` : '';
  return {
    status: 429,
    code: RATE_LIMITED,
    type: 'rate_limit_error',
    message: `fcm-router: every model of the set is rate-limited or at its free-tier budget${besides}; ${tryAgainIn(wait)}`,
    retryAfterSec: wait,
  };
}

/** What to do when the proxy in front of the providers refused the calls. */
const PROXY_HINT =
  ': the proxy refused the calls; check its address and credentials in HTTPS_PROXY or HTTP_PROXY';

/** What to do when a provider does not serve the network the router calls it from. */
const REGION_HINT =
  '; a provider does not serve this network location: use another network or a proxy (HTTPS_PROXY)';

const FORCED_CALL_HINT =
  '; the request forces a tool call (tool_choice) and a model answered without the call it allows';

/** The hints the kinds seen call for. */
function hints(kinds: readonly string[]): string {
  return (
    (kinds.includes('proxy_refused') ? PROXY_HINT : '') +
    (kinds.includes('region_refused') ? REGION_HINT : '') +
    (kinds.includes('tool_choice_ignored') ? FORCED_CALL_HINT : '')
  );
}

/**
 * When every model refused the request as invalid: what the last one that gave its reasons said, for the
 * agent's user to see what to change ('' otherwise).
 */
function refusedWith(single: Classification | undefined, failures: readonly Classification[]): string {
  if (single?.kind !== 'invalid_request') return '';
  const said = failures.findLast((failure) => failure.said !== undefined)?.said;
  return said === undefined ? '' : `; the last said: ${said}`;
}

/**
 * When every dispatched attempt failed: the shared client status if every failure has one kind, else 503;
 * the message names the kinds seen, and when every model refused the request as invalid, the last one's
 * own words (the agent's user can act on them). Pure.
 */
export function allFailedAnswer(
  failures: readonly Classification[],
  soonestRetryAt: number | null,
  now: number,
): ErrorAnswer {
  const kinds = [...new Set(failures.map((failure) => failure.kind))];
  const single = kinds.length === 1 ? failures[0] : undefined;
  const status = single ? single.clientStatus : 503;
  const code =
    single?.kind === 'rate_limit'
      ? RATE_LIMITED
      : single?.kind === 'auth_error'
        ? 'invalid_api_key'
        : single
          ? single.kind
          : 'all_models_failed';
  const retryable = status === 429 || status === 503;
  const retryAfterSec = retryable ? (soonestRetryAt !== null ? clampRetry(soonestRetryAt - now) : 30) : null;
  const wait = status === 429 && retryAfterSec !== null ? `; ${tryAgainIn(retryAfterSec)}` : '';
  return {
    status,
    code,
    type:
      status === 429
        ? 'rate_limit_error'
        : status === 401
          ? 'authentication_error'
          : status < 500
            ? 'invalid_request_error'
            : 'upstream_error',
    message: `fcm-router: every model tried failed (${kinds.join(', ')})${hints(kinds)}${refusedWith(single, failures)}${wait}`,
    retryAfterSec,
  };
}

/**
 * When no model of the set can take the request (each was skipped, or refused it, for its size or for the
 * tools or images it uses): 400 `context_length_exceeded` naming the request's estimated size and the
 * largest window among the models it was too large for, which agents act on by compacting (without the
 * window when none was learnt); or, when size was not the matter, a 400 naming the features no model
 * takes. Pure.
 */
export function nothingFitsAnswer(
  size: number,
  largestWindow: number | null,
  reasons: ReadonlySet<string>,
): ErrorAnswer {
  if (largestWindow !== null) {
    const message = `fcm-router: this request is about ${size} tokens (input and requested output) and the largest context window in the set is ${largestWindow} tokens; compact the conversation or ask for less output`;
    return {
      ...clientError(400, 'context_length_exceeded', message, 'messages'),
      tooLong: { tokens: size, maximum: largestWindow },
    };
  }
  const features = [
    reasons.has('no_tool_support') ? 'tools' : null,
    reasons.has('no_image_support') ? 'images' : null,
  ].filter((feature) => feature !== null);
  if (features.length === 0) {
    // Refused for size, but no window was learnt (a refusal of a request too small to teach one).
    const message = `fcm-router: every model of the set refused this request (about ${size} tokens, input and requested output) as too large; compact the conversation or ask for less output`;
    return clientError(400, 'context_length_exceeded', message, 'messages');
  }
  const message = `fcm-router: no model of the set takes ${features.join(' or ')}, which this request uses`;
  return clientError(400, 'unsupported_request', message, features[0] ?? null);
}

/** A local fault stopped the request: the router's own error, no model blamed (the log has the stack). */
export const INTERNAL_ERROR_ANSWER: ErrorAnswer = Object.freeze({
  status: 500,
  code: 'internal_error',
  type: 'server_error',
  message: 'fcm-router: an internal error stopped this request (the router logged it); no model was blamed',
  retryAfterSec: null,
});

/** The router was stopping and its grace ran out before this request was answered: no model is to blame. */
export const STOPPING_ANSWER: ErrorAnswer = Object.freeze({
  status: 503,
  code: 'router_stopping',
  type: 'service_unavailable',
  message:
    'fcm-router: the router is stopping and ended this request before it was answered; no model was blamed',
  retryAfterSec: null,
});

/** Routing is paused by the user: agents are told so, and told to come back. */
export const PAUSED_ANSWER: ErrorAnswer = Object.freeze({
  status: 503,
  code: 'router_paused',
  type: 'service_unavailable',
  message:
    'fcm-router: routing is paused (resume it with `fcm-router resume`, from the tray or the dashboard)',
  retryAfterSec: 30,
});

/**
 * Sent with {@link PAUSED_ANSWER}: the Anthropic and OpenAI SDKs (Claude Code's, and most agents') obey it,
 * so the agent shows the pause at once instead of retrying in silence, looking hung, for minutes.
 */
export const PAUSED_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'x-should-retry': 'false' });
