/**
 * Reading how long an upstream asks us to wait: the `Retry-After` header (RFC 9110: delay-seconds or an
 * HTTP date) and the free-text hints some providers put in error bodies instead.
 */

const SECONDS = /^\d+(?:\.\d+)?$/;
// The three HTTP-date forms all start with a day name; ISO 8601 is accepted as some gateways send it.
// Date.parse alone is too lenient ("1" parses as the year 2001).
const HTTP_DATE = /^[A-Za-z]{3,9},?\s+\S/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Parses a `Retry-After` value into milliseconds from `now` (never negative).
 *
 * @returns null when the value is absent or unparseable.
 * @example parseRetryAfterMs('23', now) // 23000
 * @example parseRetryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', now) // ms until then, or 0 if past
 */
export function parseRetryAfterMs(value: string | null | undefined, now: number): number | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (SECONDS.test(text)) {
    const ms = Math.ceil(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : null;
  }
  let at = Number.NaN;
  // HTTP dates are always GMT; the asctime form says no zone, which Date.parse would read as local time.
  if (HTTP_DATE.test(text)) at = Date.parse(/\b(?:GMT|UTC)\b/i.test(text) ? text : `${text} GMT`);
  else if (ISO_DATE.test(text)) at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

const UNIT_MS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:ms|msecs?|milliseconds?)$/, 1],
  [/^(?:s|secs?|seconds?)$/, 1000],
  [/^(?:m|mins?|minutes?)$/, 60_000],
  [/^(?:h|hrs?|hours?)$/, 3_600_000],
];
// "try again in 23 seconds", "try again 23 seconds later", "retry after 23s", "Please retry in 1m30.5s".
const LEAD = /\b(?:try(?:ing)?\s+again|retry)(?:\s+(?:in|after))?\s*:?\s*(?=\d)/gi;
// Fractions to nanoseconds: Gemini says "Please retry in 29.857423712s."
const PART = /(\d{1,9}(?:\.\d{1,9})?)\s*([a-z]{1,12})/iy;
// Gemini's RetryInfo detail: "retryDelay": "23s".
const RETRY_DELAY = /"retryDelay"\s*:\s*"(\d{1,9}(?:\.\d{1,9})?)s"/;
const SCAN_CHARS = 4096;

function unitMs(unit: string): number | null {
  const lower = unit.toLowerCase();
  return UNIT_MS.find(([pattern]) => pattern.test(lower))?.[1] ?? null;
}

/** Reads a duration such as "1m30.5s" or "23 seconds" starting at `from`; null when none is there. */
function readDuration(text: string, from: number): number | null {
  let total: number | null = null;
  let at = from;
  for (;;) {
    PART.lastIndex = at;
    const match = PART.exec(text);
    const ms = match ? unitMs(match[2] ?? '') : null;
    if (!match || ms === null) return total;
    total = (total ?? 0) + Number(match[1]) * ms;
    at = PART.lastIndex;
    while (text[at] === ' ') at += 1;
  }
}

/**
 * Finds a wait hint in an error text, such as OpenRouter's "try again in 23 seconds" or "try again 23
 * seconds later", OpenAI's "Please try again in 1.5s" or "retry after 23s".
 *
 * @returns the wait in milliseconds, or null when the text names none.
 */
export function parseRetryHintFromText(text: string): number | null {
  const head = text.slice(0, SCAN_CHARS);
  for (const lead of head.matchAll(LEAD)) {
    const ms = readDuration(head, lead.index + lead[0].length);
    if (ms !== null) return Math.ceil(ms);
  }
  const delay = RETRY_DELAY.exec(head);
  return delay ? Math.ceil(Number(delay[1]) * 1000) : null;
}

/** OpenRouter's reset in its 429 body (`metadata.headers`): `"X-RateLimit-Reset": "1741305600000"`. */
const RESET_STAMP = /"X-RateLimit-Reset"\s*:\s*"?(\d{10}|\d{13})"?/i;

/**
 * The wait until a rate limit's reset that an error body states as a time (epoch milliseconds, or seconds
 * for 10 digits), from `now`: OpenRouter's 429 carries its limit's headers in the body, whatever its window
 * (a minute, a day).
 *
 * @returns the wait in milliseconds (0 for a time past), or null when the text states none.
 * @example parseResetStampFromText('{"X-RateLimit-Reset":"1700000060000"}', 1_700_000_000_000) // 60000
 */
export function parseResetStampFromText(text: string, now: number): number | null {
  const match = RESET_STAMP.exec(text.slice(0, SCAN_CHARS));
  if (match?.[1] === undefined) return null;
  const at = match[1].length === 10 ? Number(match[1]) * 1000 : Number(match[1]);
  return Math.max(0, at - now);
}
