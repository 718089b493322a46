/**
 * The headers of an upstream call: those it sends (the client's few that may go, the provider's own, its
 * key) and the rate-limit headers many providers answer with (`x-ratelimit-remaining-requests`, `-tokens`,
 * and `x-ratelimit-reset-requests`, `-tokens`: what is left of a budget and when it resets).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RateLimitHint, RateLimitHints } from '../state/budget-standing.js';

export type { RateLimitHint, RateLimitHints };

/**
 * The only client headers that reach a provider, on every face: the agent's name and OpenRouter's app
 * attribution (`HTTP-Referer`, `X-Title`). An allow-list, not a deny-list: a client's credentials under
 * any name (`authorization`, `x-api-key`, `x-goog-api-key`, `anthropic-api-key`, `x-auth-token`,
 * `openai-organization`…), cookies, hop-by-hop and forwarding headers, and a protocol's own headers
 * (`anthropic-beta`, session ids) never go; the provider's key and headers are the router's to add.
 */
const FORWARDED: readonly string[] = ['user-agent', 'http-referer', 'x-title'];

/** Builds the headers of one upstream call from the client's (those {@link FORWARDED}), the provider's extras and its key. */
export function buildUpstreamHeaders(
  client: IncomingHttpHeaders,
  options: {
    apiKey: string | null;
    providerHeaders: Readonly<Record<string, string>>;
    requestId: string;
    stream: boolean;
  },
): Record<string, string> {
  const out: Record<string, string> = {};
  // Three lookups per attempt, whatever the client sent.
  for (const name of FORWARDED) {
    const value = client[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const extra = options.providerHeaders;
  for (const name in extra) out[name.toLowerCase()] = extra[name] as string;
  out['content-type'] = 'application/json';
  out.accept = options.stream ? 'text/event-stream' : 'application/json';
  out['x-request-id'] = options.requestId;
  if (options.apiKey) out.authorization = `Bearer ${options.apiKey}`;
  return out;
}

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

/** The rate-limit hints in a response head, or null when it has none. Pure. */
export function parseRateLimitHeaders(headers: IncomingHttpHeaders): RateLimitHints | null {
  const requests = hint(headers, REQUESTS);
  const tokens = hint(headers, TOKENS);
  return requests === null && tokens === null ? null : { requests, tokens };
}
