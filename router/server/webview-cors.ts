/**
 * Editor webviews (`vscode-webview:`, `vscode-file:`) may use the chat API from their page. A JSON POST from
 * a page is preceded by a CORS preflight, and the page reads the answer only when it names the origin, so
 * both are given to those origins on `/v1`. No http(s) origin ever gets either: no web page can read an
 * answer of the router.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dropUnreadBody } from './request-body.js';
import { isEditorWebview } from './guards.js';
import { SESSION_HEADERS } from './session-id.js';

/** What agents send on `/v1`: the body's type and coding, any key, Anthropic's versions, session ids. */
const ALLOWED_HEADERS = [
  'content-type',
  'content-encoding',
  'authorization',
  'x-api-key',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'http-referer',
  'x-title',
  ...SESSION_HEADERS,
].join(', ');

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

/** The answer to a webview's preflight: its origin, the methods of `/v1` and the headers agents send. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': ALLOWED_HEADERS,
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
    res.writeHead(204, { ...preflightHeaders(origin), ...dropUnreadBody(req) }).end();
    return true;
  }
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  return false;
}
