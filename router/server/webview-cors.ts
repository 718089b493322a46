/**
 * Editor webviews (`vscode-webview:`, `vscode-file:`) may use the chat API from their page. A JSON POST from
 * a page is preceded by a CORS preflight, and the page reads the answer only when it names the origin, so
 * both are given to those origins on `/v1`. No http(s) origin ever gets either: no web page can read an
 * answer of the router.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dropUnreadBody } from './request-body.js';
import { isEditorWebview } from './guards.js';

/**
 * A preflight's list of header names (`Access-Control-Request-Headers`): tokens and commas only, so it is
 * sent back as it came. The origin may use `/v1` with any header, as an agent may: an SDK's own (OpenAI's and
 * Anthropic's send `x-stainless-*`) as well as keys, versions and session ids.
 */
const HEADER_NAMES = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** How long a webview may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

/** The `Origin` when it is an editor webview's (and a valid header value to send back), else null. */
export function webviewOrigin(origin: string | undefined): string | null {
  if (origin === undefined || !/^[\x21-\x7e]+$/.test(origin)) return null;
  try {
    return isEditorWebview(new URL(origin).protocol) ? origin : null;
  } catch {
    return null;
  }
}

/** The answer to a webview's preflight: its origin, the methods of `/v1` and the headers it asked for. */
export function preflightHeaders(origin: string, requested: string | undefined): Record<string, string> {
  const names = requested?.trim() ?? '';
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST',
    ...(HEADER_NAMES.test(names) ? { 'access-control-allow-headers': names } : {}),
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
    vary: 'Origin',
    'cache-control': 'no-store',
  };
}

/**
 * On `/v1`, for an editor webview: answers its preflight (true: the request is answered), or lets its
 * page read whatever the route answers, a stream included (false: the route goes on).
 */
export function serveWebviewCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = webviewOrigin(req.headers.origin);
  if (origin === null) return false;
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    const asked = req.headers['access-control-request-headers'];
    res.writeHead(204, { ...preflightHeaders(origin, asked), ...dropUnreadBody(req) }).end();
    return true;
  }
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  return false;
}
