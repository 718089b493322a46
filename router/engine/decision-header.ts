import type { AttemptView, RequestOutcome } from '../api-types.js';

const CHAIN_MAX = 600;
const VALUE_MAX = 900;

/** One attempt as the decision header writes it: `model:200` for a pass, else the status or failure kind. */
function attemptToken(attempt: AttemptView): string {
  if (attempt.kind === null) return `${attempt.model}:${attempt.status ?? 200}`;
  // A 200 that failed the gate shows its kind, never 200; an HTTP failure shows its status.
  const label = attempt.status !== null && attempt.status >= 300 ? String(attempt.status) : attempt.kind;
  return `${attempt.model}:${label}`;
}

/**
 * Formats `x-fcm-v2-decision`: `served!outcome|a/m1:empty_choices->b/m2:200|skips=1`, or
 * `none!all_failed|…` when nothing served. Kept ASCII and bounded in length.
 */
export function formatDecision(
  served: string | null,
  outcome: RequestOutcome,
  attempts: readonly AttemptView[],
  skipCount: number,
): string {
  let chain = attempts.map(attemptToken).join('->');
  if (chain.length > CHAIN_MAX) chain = `...${chain.slice(chain.length - CHAIN_MAX + 3)}`;
  const value = `${served ?? 'none'}!${outcome}|${chain}|skips=${skipCount}`;
  return asciiHeader(value.length > VALUE_MAX ? value.slice(0, VALUE_MAX) : value);
}

const NOT_HEADER_SAFE = /[^\x20-\x7e]/;
const NOT_HEADER_SAFE_ALL = /[^\x20-\x7e]/g;

/** Replaces anything a header value cannot carry (the usual all-ASCII value is returned as it is). */
export function asciiHeader(value: string): string {
  return NOT_HEADER_SAFE.test(value) ? value.replace(NOT_HEADER_SAFE_ALL, '?') : value;
}

/** The client's `x-request-id` if it is a sane token of 64 chars or fewer, else a fresh `req-<uuid>`. */
export function pickRequestId(clientValue: string | undefined, makeId: () => string): string {
  if (clientValue && clientValue.length <= 64 && /^[\x21-\x7e]+$/.test(clientValue)) return clientValue;
  return `req-${makeId()}`;
}
