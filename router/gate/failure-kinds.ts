/**
 * Every way an attempt can fail, by name. The classifier maps each to blame, failover and health damage;
 * traces, history, headers and the dashboard show these names as they are.
 */
export const FAILURE_KINDS = [
  'auth_error',
  'payment_required',
  'region_refused',
  'rate_limit',
  'model_not_found',
  'invalid_request',
  'context_length',
  'over_tpm',
  'no_tool_support',
  'no_image_support',
  'timeout',
  'body_timeout',
  'stream_stall',
  'network_error',
  'proxy_refused',
  'server_error',
  'overloaded',
  'html_maintenance',
  'invalid_json',
  'empty_choices',
  'empty_content',
  'error_payload',
  'empty_stream',
  'invalid_tool_call',
  'tool_choice_ignored',
  'mid_stream_error',
  'unfinished_stream',
  'client_aborted',
  'budget_exhausted',
  'hedge_lost',
  'router_stopping',
  'internal_error',
] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Failures a 2xx body or stream can show (the gate's and the stream tracker's verdicts). */
export type ContentFailureKind = Extract<
  FailureKind,
  | 'html_maintenance'
  | 'invalid_json'
  | 'empty_choices'
  | 'empty_content'
  | 'error_payload'
  | 'empty_stream'
  | 'invalid_tool_call'
  | 'tool_choice_ignored'
>;

/** Refusals of a request the model cannot take: too large, or using tools or images it does not take. */
export type FitFailureKind = Extract<
  FailureKind,
  'context_length' | 'over_tpm' | 'no_tool_support' | 'no_image_support'
>;

/** Failures of the transport itself, with no HTTP status to classify. */
export type TransportFailureKind = Extract<
  FailureKind,
  | 'timeout'
  | 'body_timeout'
  | 'stream_stall'
  | 'network_error'
  | 'proxy_refused'
  | 'client_aborted'
  | 'budget_exhausted'
  | 'hedge_lost'
  | 'router_stopping'
  | 'mid_stream_error'
  | 'unfinished_stream'
>;

/** Why a candidate model was not tried for a request. */
export const SKIP_REASONS = [
  'provider_disabled',
  'provider_unresolvable',
  'auth_error',
  'missing_key',
  'quota_paused',
  'quota_budget',
  'circuit_open',
  'half_open_busy',
  'trial_due',
  'unknown_model',
  'model_vanished',
  'already_tried',
  'context_window',
  'over_tpm',
  'no_tool_support',
  'no_image_support',
] as const;

export type SkipReason = (typeof SKIP_REASONS)[number];

/** Skips of a model that cannot take this request (its size, its tools, its images). */
export type FitSkipReason = Extract<
  SkipReason,
  'context_window' | 'over_tpm' | 'no_tool_support' | 'no_image_support'
>;

/** The outcome of one request as history and headers record it. */
export const REQUEST_OUTCOMES = [
  'served',
  'partial',
  'all_failed',
  'no_candidates',
  'client_aborted',
  'rejected',
  'internal_error',
] as const;

export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];
