import type { AttemptView, FailureKind, RequestOutcome, SkipReason } from '../../../router/api-types.js';

/** One-line explanations of failure kinds, shown as tooltips next to the names the router uses. */
export const FAILURE_HINTS: Record<FailureKind, string> = {
  auth_error: 'The provider refused the key (401/403).',
  payment_required: 'The key is out of credit (402).',
  region_refused:
    'The provider does not serve this network location (its 400/403 names the country); the key is paused for 15 min.',
  rate_limit: 'Rate limited (429); the model is paused.',
  model_not_found: 'The provider does not know this model (404).',
  invalid_request: 'The provider rejected the request shape (400/413/422).',
  context_length: 'Too long for this model’s context window; the router learnt its ceiling.',
  over_tpm: 'Larger than the key’s whole tokens-per-minute limit; the router learnt it.',
  no_tool_support: 'The model does not take tools; the router learnt it.',
  no_image_support: 'The model does not take images; the router learnt it.',
  timeout: 'No response headers in time.',
  body_timeout: 'The response body did not arrive in time.',
  stream_stall: 'The stream went silent.',
  network_error: 'Connection refused, reset or DNS failure.',
  proxy_refused:
    'The proxy refused the call (its 407 or 403): check its address and credentials; the model is not blamed.',
  server_error: 'The provider answered 5xx.',
  overloaded: 'The provider is overloaded (529/503).',
  html_maintenance: 'An HTML page instead of JSON (maintenance or captive page).',
  invalid_json: 'The body was not valid JSON.',
  empty_choices: 'HTTP 200 with no choices.',
  empty_content: 'HTTP 200 with nothing to act on: an empty message, or thoughts alone.',
  error_payload: 'HTTP 200 carrying an error object.',
  empty_stream: 'The stream ended without content.',
  invalid_tool_call:
    'A tool call the agent could not run: arguments that are not JSON, or a tool it never offered.',
  tool_choice_ignored:
    'The request forced a tool call and the model answered without one (or called another tool than the one named); its breaker is spared.',
  mid_stream_error: 'The stream broke after content was sent.',
  unfinished_stream:
    'The stream closed after content without its finish reason or [DONE]: the answer was cut.',
  client_aborted: 'The agent hung up.',
  budget_exhausted: 'The request ran out of its total time budget.',
  hedge_lost: 'A hedged attempt answered first, so this one was stopped; the model is not blamed.',
  router_stopping:
    'The router was stopping and its grace for requests in flight ran out, so it ended this one; the model is not blamed.',
  internal_error: 'A fault in the router itself (logged with its stack); the model is not blamed.',
};

/** A failure kind's explanation as words inside a sentence: `the provider answered 5xx`. */
export function failureWords(kind: FailureKind): string {
  const hint = FAILURE_HINTS[kind].replace(/\.$/, '');
  // Lower the first letter of a sentence, not of an acronym (`HTTP 200 …`, `An HTML page …` → `an HTML …`).
  const second = hint.charAt(1);
  return second !== '' && second === second.toLowerCase()
    ? hint.charAt(0).toLowerCase() + hint.slice(1)
    : hint;
}

export const SKIP_HINTS: Record<SkipReason, string> = {
  provider_disabled: 'provider switched off',
  provider_unresolvable: 'provider URL cannot be built',
  auth_error: 'key refused (401/403)',
  missing_key: 'no API key configured',
  quota_paused: 'quota pause running',
  quota_budget: 'free-tier budget used up',
  model_vanished: 'no longer in the provider’s model list',
  circuit_open: 'breaker OPEN',
  half_open_busy: 'trial already running',
  trial_due: 'due for its trial: not asked to finish another model’s answer',
  unknown_model: 'not in the catalogue',
  already_tried: 'already tried in this request',
  context_window: 'the request is larger than its context window',
  over_tpm: 'the request is larger than the key’s whole tokens-per-minute limit',
  no_tool_support: 'does not take tools',
  no_image_support: 'does not take images',
};

/** Why an attempt was made, as its tag says (a plain turn in the order has none). */
export const ROLE_LABELS: Record<AttemptView['role'], { tag: string; hint: string } | null> = {
  normal: null,
  trial: { tag: 'trial', hint: 'A tripped model’s trial: success closes its breaker.' },
  panic: { tag: 'panic', hint: 'Every model was tripped: the one whose cooldown ends soonest was tried.' },
  last_resort: { tag: 'last resort', hint: 'The last-resort model, tried after the chain failed.' },
  pinned: { tag: 'pinned', hint: 'The request named this model.' },
  hedge: {
    tag: 'hedge',
    hint: 'Started alongside an attempt that had sent nothing useful after the hedge delay.',
  },
  continuation: {
    tag: 'continued',
    hint: 'Finished an answer whose stream broke after part of it was sent.',
  },
};

export const OUTCOME_LABELS: Record<RequestOutcome, string> = {
  served: 'served',
  partial: 'partial',
  all_failed: 'all failed',
  no_candidates: 'no candidates',
  client_aborted: 'client aborted',
  rejected: 'rejected',
  internal_error: 'internal error',
};

/** Outcomes that count as a failure of the router (aborts and rejected requests do not). */
export function isFailedOutcome(outcome: RequestOutcome): boolean {
  return (
    outcome === 'all_failed' ||
    outcome === 'no_candidates' ||
    outcome === 'partial' ||
    outcome === 'internal_error'
  );
}
