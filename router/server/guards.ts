import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The hostname of a Host header, without port or IPv6 brackets; null when malformed. */
export function hostName(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(hostHeader.trim());
  if (!match || !match[1]) return null;
  return match[1].replace(/^\[|\]$/g, '').toLowerCase();
}

/** The last Host header judged, and its verdict. */
const lastHost: { header: string | null; allowed: boolean } = { header: null, allowed: false };

/**
 * DNS-rebinding guard: a page on a foreign domain that resolves to 127.0.0.1 still sends its own domain as
 * Host. Loopback names and IP literals pass (an IP literal cannot be rebound); any other name is refused.
 */
export function isAllowedHost(hostHeader: string | undefined): boolean {
  // Every request of a client carries the same Host: the last verdict answers the next one.
  if (hostHeader === lastHost.header && hostHeader !== undefined) return lastHost.allowed;
  const name = hostName(hostHeader);
  const allowed = name !== null && (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0);
  if (hostHeader !== undefined) {
    lastHost.header = hostHeader;
    lastHost.allowed = allowed;
  }
  return allowed;
}

/**
 * Cross-site guard: browsers send Origin on cross-site requests. Our own dashboard (same origin as the Host
 * the browser used) passes, as do editor webviews (vscode-webview:, vscode-file:) on the chat API; any other
 * web origin is refused. No Origin (agents, curl) passes.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  hostHeader: string | undefined,
  chatApi: boolean,
): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
    return hostHeader !== undefined && parsed.host === hostHeader.toLowerCase() && isAllowedHost(parsed.host);
  }
  return chatApi && isEditorWebview(parsed.protocol);
}

/** True for the scheme (`vscode-webview:`) of an editor's webview, which may use the chat API. */
export function isEditorWebview(protocol: string): boolean {
  return protocol === 'vscode-webview:' || protocol === 'vscode-file:';
}

/**
 * Fetch-metadata guard: a browser says in `Sec-Fetch-Site` whose page made a request. The dashboard's own
 * calls are `same-origin` and an address typed or bookmarked is `none`; anything else is another page's
 * doing, `same-site` included (a page on another port of 127.0.0.1 or localhost is the same site). Such a
 * request needs no Origin when it looks like an image or a frame, so the Origin guard never sees it.
 * Agents, scripts and browsers without fetch metadata send no such header.
 */
export function isForeignFetch(fetchSite: string | undefined): boolean {
  return fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
}

/** Constant-time comparison of the per-start dashboard token. */
export function tokenMatches(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True for `application/json` with any parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/json\s*(;|$)/i.test(value.trim());
}

/** The agent's User-Agent product token (`opencode/1.18.33`), bounded; null when absent. */
export function clientToken(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const first = userAgent.trim().split(/\s+/)[0] ?? '';
  const cleaned = first.replace(/[^\x21-\x7e]/g, '').slice(0, 60);
  return cleaned.length > 0 ? cleaned : null;
}
