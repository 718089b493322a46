/**
 * The rate-limit headers many providers send (`x-ratelimit-remaining-requests`, `-tokens`, and
 * `x-ratelimit-reset-requests`, `-tokens`): what is left of a budget and when it resets. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RateLimitHint, RateLimitHints } from '../state/budget-standing.js';

export type { RateLimitHint, RateLimitHints };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A reset time as providers write it: `2m59.56s`, `7.66s`, `250ms`, `1h2m`, or a bare number of seconds.
 * Null when it is none of these.
 * @example parseResetMs('1m30s') // 90000
 */
export function parseResetMs(value: string | undefined): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return null;
  return Math.round(parts.reduce((sum, part) => sum + Number(part[1]) * (UNIT_MS[part[2] ?? 's'] ?? 0), 0));
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Each budget's pair of headers, named once: a name built per lookup is a new string to hash per answer. */
const REQUESTS = {
  remaining: 'x-ratelimit-remaining-requests',
  reset: 'x-ratelimit-reset-requests',
} as const;
const TOKENS = { remaining: 'x-ratelimit-remaining-tokens', reset: 'x-ratelimit-reset-tokens' } as const;

function hint(headers: IncomingHttpHeaders, names: typeof REQUESTS | typeof TOKENS): RateLimitHint | null {
  const raw = first(headers[names.remaining])?.trim();
  if (raw === undefined || !/^-?\d+$/.test(raw)) return null;
  return { remaining: Number(raw), resetMs: parseResetMs(first(headers[names.reset])) };
}

/** The hints in a response head, or null when it has none. */
export function parseRateLimitHeaders(headers: IncomingHttpHeaders): RateLimitHints | null {
  const requests = hint(headers, REQUESTS);
  const tokens = hint(headers, TOKENS);
  return requests === null && tokens === null ? null : { requests, tokens };
}
