/**
 * The failure classifier: one pure table from "how an attempt failed" to what that failure means: blame,
 * failover, health damage, quota pause, key block, whether another key of the provider may serve, what a
 * refusal teaches about the model's fit, and the status the client sees. `engine/booking/attempt-effects.ts` turns
 * a classification into the effects one attempt has. Fairness rules: a rate limit or a refused key is not
 * the model's fault (no health damage); a request-shape error is the client's; a removed model (404/410)
 * counts.
 */
import type { ContentFailureKind, FailureKind, TransportFailureKind } from './failure-kinds.js';
import { fitRefusal } from './fit-refusal.js';
import { outputLengthMayCause } from './output-length-refusal.js';
import { refusalWords } from './refusal-words.js';
import { parseResetStampFromText, parseRetryAfterMs, parseRetryHintFromText } from './retry-after.js';
import { kindFromWords, upstreamPoolLimit } from './status-words.js';

export type FailureInput =
  /** A non-2xx answer; `bodySnippet` is the first <= 2 KB of its body, possibly ''. */
  | { type: 'http'; status: number; retryAfter: string | null; bodySnippet: string }
  /** A 2xx that failed the response gate or the stream tracker. */
  | { type: 'content'; kind: ContentFailureKind; errorCode: number | string | null; detail: string }
  | { type: 'transport'; kind: TransportFailureKind };

export type Blame = 'model' | 'provider' | 'client' | 'none';

export interface QuotaPause {
  /**
   * `model`: the model on this key, or the whole provider on it when the provider's limits are per key;
   * `upstream`: the model alone whatever the provider's limits (an aggregator's saturated upstream pool);
   * `provider`: the whole provider on this key.
   */
  scope: 'model' | 'upstream' | 'provider';
  ms: number;
  /** Set by the upstream itself (Retry-After, 402): never probed early. */
  authoritative: boolean;
}

/** What a refusal teaches about a model: its window or TPM ceiling, or a feature it does not take. */
export type FitLesson =
  { type: 'ceiling'; ceiling: 'context' | 'tpm' } | { type: 'feature'; feature: 'tools' | 'images' };

export interface Classification {
  kind: FailureKind;
  blame: Blame;
  /** Try the next model. */
  failover: boolean;
  /** Counts against the model's breaker. */
  healthDamage: boolean;
  /** Quota pause to apply, if any. */
  pause: QuotaPause | null;
  /** The provider's key was refused. */
  blockProviderAuth: boolean;
  /** The key failed rather than the model (its limit, its credit, its refusal): the provider's next key may serve. */
  keyFault: boolean;
  /** What this refusal teaches about the model's fit, if anything. */
  lesson: FitLesson | null;
  /** A refusal an output length (`max_tokens`) may have caused: worth one more try without it when it was a 400. */
  outputLengthSuspect: boolean;
  /** Status to give the client if every attempt ends like this. */
  clientStatus: number;
  /** A size refusal's stated limit in tokens (a context window, a TPM limit), when it states one. */
  statedLimit?: number;
  /**
   * An `invalid_request`'s own words from the upstream (see `refusal-words.ts`): for the client that sent
   * the request only, never for logs, history, traces or events.
   */
  said?: string;
}

/** Pause after a rate limit that names no usable wait. */
export const QUOTA_PAUSE_DEFAULT_MS = 60_000;
/** Longest pause any Retry-After or hint can impose. */
export const QUOTA_PAUSE_MAX_MS = 15 * 60_000;
/** Pause of a provider whose key is out of credit (402). */
export const PAYMENT_PAUSE_MS = 3_600_000;
/** Pause of a provider that refuses this network location: a VPN or proxy may change it, so not for long. */
export const REGION_PAUSE_MS = 15 * 60_000;

type Row = Pick<
  Classification,
  'blame' | 'failover' | 'healthDamage' | 'clientStatus' | 'keyFault' | 'lesson' | 'outputLengthSuspect'
>;

/** A kind's row; `more` sets the columns that differ from the usual (failover, no key fault, no lesson). */
const row = (
  blame: Blame,
  healthDamage: boolean,
  clientStatus: number,
  more: Partial<Pick<Row, 'failover' | 'keyFault' | 'lesson' | 'outputLengthSuspect'>> = {},
): Row => ({
  blame,
  failover: true,
  healthDamage,
  clientStatus,
  keyFault: false,
  lesson: null,
  outputLengthSuspect: false,
  ...more,
});

const KEY_FAULT = { keyFault: true } as const;
const NO_FAILOVER = { failover: false } as const;
const ceiling = (of: 'context' | 'tpm'): Pick<Row, 'lesson'> => ({
  lesson: { type: 'ceiling', ceiling: of },
});
const feature = (of: 'tools' | 'images'): Pick<Row, 'lesson'> => ({
  lesson: { type: 'feature', feature: of },
});

/** Every kind's defaults. `invalid_request` echoes the upstream status instead of its 400. */
const KIND_TABLE: Record<FailureKind, Row> = {
  auth_error: row('provider', false, 401, KEY_FAULT),
  payment_required: row('provider', false, 402, KEY_FAULT),
  // The provider does not serve this network location: nobody's fault (not the model's, not the key's: another
  // key meets it too); the provider's pause on the key keeps it from being asked again at once.
  region_refused: row('none', false, 403),
  rate_limit: row('model', false, 429, KEY_FAULT),
  model_not_found: row('model', true, 502),
  invalid_request: row('client', false, 400, { outputLengthSuspect: true }),
  // The request is too large for this model, or uses what it does not take: the request's, not the model's.
  context_length: row('client', false, 400, { ...ceiling('context'), outputLengthSuspect: true }),
  over_tpm: row('client', false, 400, ceiling('tpm')),
  no_tool_support: row('client', false, 400, feature('tools')),
  no_image_support: row('client', false, 400, feature('images')),
  timeout: row('provider', true, 504),
  body_timeout: row('provider', true, 504),
  stream_stall: row('provider', true, 504),
  network_error: row('provider', true, 502),
  // The proxy in front of every provider refused the tunnel: the user's set-up, not any model's health.
  proxy_refused: row('none', false, 502),
  server_error: row('provider', true, 502),
  overloaded: row('model', true, 503),
  html_maintenance: row('provider', true, 503),
  invalid_json: row('provider', true, 502),
  empty_choices: row('model', true, 502),
  empty_content: row('model', true, 502),
  error_payload: row('provider', true, 502),
  empty_stream: row('provider', true, 502),
  // A tool call the agent cannot run (arguments that are not JSON, a tool the request never offered).
  invalid_tool_call: row('model', true, 502),
  // The request forced a tool call and the answer made none (or only calls to other tools than the one
  // named): the model's failing, but one of the request's kind only, as a tool or image refusal is. Counted
  // in its success rate, never against its breaker: it answers other requests well.
  tool_choice_ignored: row('model', false, 502),
  // Content already reached the client: too late to fail over.
  mid_stream_error: row('model', true, 502, NO_FAILOVER),
  // The upstream's stream closed after content without its finish reason or `[DONE]`: cut on the way. Fails
  // over unseen while nothing was sent (the content held: a tool call, a continuation's restated start).
  unfinished_stream: row('provider', true, 502),
  client_aborted: row('none', false, 499, NO_FAILOVER),
  budget_exhausted: row('none', false, 504, NO_FAILOVER),
  // A hedged race's loser, stopped because its rival answered first: nothing is wrong with it.
  hedge_lost: row('none', false, 503, NO_FAILOVER),
  // The router was stopping and its grace for requests in flight ran out: it ended the attempt itself.
  router_stopping: row('none', false, 503, NO_FAILOVER),
  // The router's own fault: never the model's, and nothing to fail over for.
  internal_error: row('none', false, 500, NO_FAILOVER),
};

const STATUS_KINDS: Readonly<Record<number, FailureKind>> = {
  401: 'auth_error',
  402: 'payment_required',
  403: 'auth_error',
  404: 'model_not_found',
  408: 'timeout',
  410: 'model_not_found',
  429: 'rate_limit',
  529: 'overloaded',
};

function kindOfStatus(status: number): FailureKind {
  const exact = STATUS_KINDS[status];
  if (exact) return exact;
  if (status >= 400 && status < 500) return 'invalid_request';
  // Other 5xx, and anything a success-or-error answer should never be (1xx, 3xx, nonsense).
  return 'server_error';
}

const RATE_LIMIT_TEXT = /rate[\s_-]?limit|quota|too many requests/i;

/**
 * The 4xx status an error object inside a 2xx carries as its `code` (a number or a numeric string), or null.
 * Such a payload is a refusal in the provider's own status words: a 400 there is the client's request at
 * fault, as an HTTP 400 is, and must not count against the model.
 */
function payloadStatus(errorCode: number | string | null): number | null {
  const code =
    typeof errorCode === 'string' && /^\s*\d{3}\s*$/.test(errorCode) ? Number(errorCode) : errorCode;
  return typeof code === 'number' && Number.isInteger(code) && code >= 400 && code < 500 ? code : null;
}

/** An error payload read as the HTTP answer its 4xx code stands for (its words as the body), or null. */
function asRefusal(input: FailureInput): Extract<FailureInput, { type: 'http' }> | null {
  if (input.type !== 'content' || input.kind !== 'error_payload') return null;
  const status = payloadStatus(input.errorCode);
  return status === null ? null : { type: 'http', status, retryAfter: null, bodySnippet: input.detail };
}

/** The kind an error payload with no 4xx code really means: its code or text can reveal a quota problem. */
function kindOfErrorPayload(errorCode: number | string | null, detail: string): FailureKind {
  if (RATE_LIMIT_TEXT.test(detail) || (typeof errorCode === 'string' && RATE_LIMIT_TEXT.test(errorCode)))
    return 'rate_limit';
  return 'error_payload';
}

/**
 * A rate-limit pause: a usable Retry-After, or a reset time the body states, is authoritative; a text hint
 * or the default is not.
 */
function rateLimitPause(retryAfter: string | null, text: string, now: number): QuotaPause {
  const header = parseRetryAfterMs(retryAfter, now) ?? parseResetStampFromText(text, now);
  if (header !== null && header > 0) {
    return { scope: 'model', ms: Math.min(header, QUOTA_PAUSE_MAX_MS), authoritative: true };
  }
  const hint = parseRetryHintFromText(text);
  const ms = hint !== null && hint > 0 ? Math.min(hint, QUOTA_PAUSE_MAX_MS) : QUOTA_PAUSE_DEFAULT_MS;
  return { scope: 'model', ms, authoritative: false };
}

/**
 * Classifies one failed attempt.
 *
 * @param now epoch ms, for a Retry-After given as an HTTP date.
 * @example classifyFailure({ type: 'http', status: 429, retryAfter: '30', bodySnippet: '' }, now)
 *   // { kind: 'rate_limit', blame: 'model', failover: true, healthDamage: false, clientStatus: 429,
 *   //   keyFault: true, lesson: null, outputLengthSuspect: false,
 *   //   pause: { scope: 'model', ms: 30000, authoritative: true }, blockProviderAuth: false }
 */
export function classifyFailure(input: FailureInput, now: number): Classification {
  const refusal = asRefusal(input);
  if (refusal !== null) return classifyFailure(refusal, now);
  let kind: FailureKind;
  let retryAfter: string | null = null;
  let text = '';
  switch (input.type) {
    case 'http': {
      const fit = fitRefusal(input.status, input.bodySnippet);
      if (fit !== null) {
        const base = KIND_TABLE[fit.kind];
        const stated = fit.statedLimit === null ? {} : { statedLimit: fit.statedLimit };
        return { kind: fit.kind, ...base, pause: null, blockProviderAuth: false, ...stated };
      }
      kind = kindFromWords(input.status, input.bodySnippet) ?? kindOfStatus(input.status);
      retryAfter = input.retryAfter;
      text = input.bodySnippet;
      break;
    }
    case 'content':
      kind = input.kind === 'error_payload' ? kindOfErrorPayload(input.errorCode, input.detail) : input.kind;
      text = input.detail;
      break;
    case 'transport':
      kind = input.kind;
      break;
  }
  const base = KIND_TABLE[kind];
  const clientStatus = kind === 'invalid_request' && input.type === 'http' ? input.status : base.clientStatus;
  // Tried again without its output length only when its words leave that as a cause.
  const outputLengthSuspect = base.outputLengthSuspect && outputLengthMayCause(text);
  let pause: QuotaPause | null = null;
  let { keyFault } = base;
  if (kind === 'rate_limit') {
    pause = rateLimitPause(retryAfter, text, now);
    // Another key meets the same upstream pool: the model waits, not the key.
    if (upstreamPoolLimit(text)) {
      pause.scope = 'upstream';
      keyFault = false;
    }
  }
  if (kind === 'payment_required') pause = { scope: 'provider', ms: PAYMENT_PAUSE_MS, authoritative: true };
  if (kind === 'region_refused') pause = { scope: 'provider', ms: REGION_PAUSE_MS, authoritative: false };
  const classification: Classification = {
    kind,
    ...base,
    keyFault,
    clientStatus,
    outputLengthSuspect,
    pause,
    blockProviderAuth: kind === 'auth_error',
  };
  const said = kind === 'invalid_request' ? refusalWords(text) : null;
  if (said !== null) classification.said = said;
  return classification;
}
