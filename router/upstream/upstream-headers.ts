import type { IncomingHttpHeaders } from 'node:http';

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
