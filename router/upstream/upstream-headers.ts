import type { IncomingHttpHeaders } from 'node:http';

/**
 * Client headers that never reach a provider: hop-by-hop headers, the client's own credentials (the
 * client's key is a placeholder; the provider's key is ours to add), cookies, routing and encoding
 * negotiation (the router reads bodies, so it must get them uncompressed).
 */
const STRIPPED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
  'content-length',
  'content-type',
  'accept',
  'accept-encoding',
  'authorization',
  'cookie',
  'x-api-key',
  'api-key',
  'x-request-id',
  'origin',
  'referer',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
]);

/** Builds the headers of one upstream call from the client's, the provider's extras and its key. */
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
  // for-in rather than Object.entries: no pair arrays per header on every attempt.
  for (const name in client) {
    const value = client[name];
    if (value === undefined || STRIPPED.has(name) || name.startsWith('x-fcm-') || name.startsWith('sec-'))
      continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const extra = options.providerHeaders;
  for (const name in extra) out[name.toLowerCase()] = extra[name] as string;
  out['content-type'] = 'application/json';
  out.accept = options.stream ? 'text/event-stream' : 'application/json';
  out['x-request-id'] = options.requestId;
  if (options.apiKey) out.authorization = `Bearer ${options.apiKey}`;
  return out;
}
