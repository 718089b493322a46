import type { AttemptView, RequestOutcome } from '../../api-types.js';

const CHAIN_MAX = 600;
const VALUE_MAX = 900;

/** One attempt as the decision header writes it: `model:200` for a pass, else the status or failure kind. */
function attemptToken(attempt: AttemptView): string {
  const model = headerValue(attempt.model);
  if (attempt.kind === null) return `${model}:${attempt.status ?? 200}`;
  // A 200 that failed the gate shows its kind, never 200; an HTTP failure shows its status.
  const label = attempt.status !== null && attempt.status >= 300 ? String(attempt.status) : attempt.kind;
  return `${model}:${label}`;
}

/**
 * Formats `x-fcm-v2-decision`: `served!outcome|a/m1:empty_choices->b/m2:200|skips=1`, or
 * `none!all_failed|…` when nothing served. Kept ASCII ({@link headerValue}) and bounded in length.
 */
export function formatDecision(
  served: string | null,
  outcome: RequestOutcome,
  attempts: readonly AttemptView[],
  skipCount: number,
): string {
  let chain = attempts.map(attemptToken).join('->');
  if (chain.length > CHAIN_MAX) chain = `...${chain.slice(chain.length - CHAIN_MAX + 3)}`;
  // Each name is encoded before the bounds apply, so the value stays within them.
  const value = `${headerValue(served ?? 'none')}!${outcome}|${chain}|skips=${skipCount}`;
  return value.length > VALUE_MAX ? value.slice(0, VALUE_MAX) : value;
}

/** Printable ASCII but `%`: what a header value carries as it is. */
const NOT_HEADER_SAFE = /[^\x20-\x24\x26-\x7e]/;
const NOT_HEADER_SAFE_ALL = /[^\x20-\x24\x26-\x7e]/gu;
/** Half of a pair alone (matched as one character with the `u` flag): not encodable, so U+FFFD. */
const LONE_SURROGATE = /^[\ud800-\udfff]$/;

/**
 * A header value for any text, the one encoding of every header built from what agents or configs name
 * (a model id): printable ASCII stays as it is; anything else (CR, LF, NUL, ESC, characters outside
 * Latin-1) and `%` itself are percent-encoded UTF-8, so the value is always writable and can be decoded
 * with `decodeURIComponent`. The usual value is returned unchanged, without a copy.
 * @example headerValue('qwen-通义') // 'qwen-%E9%80%9A%E4%B9%89'
 */
export function headerValue(value: string): string {
  if (!NOT_HEADER_SAFE.test(value)) return value;
  return value.replace(NOT_HEADER_SAFE_ALL, (char) =>
    encodeURIComponent(LONE_SURROGATE.test(char) ? '\ufffd' : char),
  );
}

/** The client's `x-request-id` if it is a sane token of 64 chars or fewer, else a fresh `req-<uuid>`. */
export function pickRequestId(clientValue: string | undefined, makeId: () => string): string {
  if (clientValue && clientValue.length <= 64 && /^[\x21-\x7e]+$/.test(clientValue)) return clientValue;
  return `req-${makeId()}`;
}
