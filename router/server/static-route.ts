import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

/** The dashboard's Content-Security-Policy: our own scripts, styles and API only. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const NOT_BUILT = `<!doctype html><html><head><meta charset="utf-8"><title>fcm-router</title></head>
<body><h1>fcm-router is running</h1><p>The dashboard is not built yet: run <code>npm run build:renderer</code>, then reload.</p>
<p>The router API is up: <a href="/health">/health</a>, <a href="/api/state">/api/state</a>.</p></body></html>`;

/**
 * Serves the built dashboard: files under `rendererDir`, `index.html` for app routes (with `pageToken`, the
 * per-start token on loopback and empty in remote mode, in place of its placeholder), a clear page when the
 * dashboard is not built.
 */
export class StaticRoute {
  #index: string | null | undefined;

  constructor(
    private readonly rendererDir: string,
    private readonly pageToken: string,
  ) {}

  /** Serves a file, or the dashboard page for any app route. */
  async handle(pathname: string, res: ServerResponse): Promise<void> {
    const decoded = safeDecode(pathname);
    const file = decoded === null ? null : path.join(this.rendererDir, path.normalize(decoded));
    const inside = file !== null && file.startsWith(this.rendererDir + path.sep);
    if (inside && path.extname(file) && path.basename(file) !== 'index.html') {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const body = await readFile(file);
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.writeHead(200, {
          ...SECURITY_HEADERS,
          'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
          'content-length': body.length,
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        res.end(body);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    const index = await this.#loadIndex();
    const html = index ?? NOT_BUILT;
    res.writeHead(index ? 200 : 503, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DASHBOARD_CSP,
      'cache-control': 'no-store',
    });
    res.end(html);
  }

  async #loadIndex(): Promise<string | null> {
    if (this.#index) return this.#index;
    const text = await readFile(path.join(this.rendererDir, 'index.html'), 'utf8').catch(() => null);
    // A missing build is checked again on the next load, so `npm run build:renderer` needs no restart.
    this.#index = text === null ? undefined : text.replaceAll('__FCM_TOKEN__', this.pageToken);
    return this.#index ?? null;
  }
}

function safeDecode(pathname: string): string | null {
  try {
    const decoded = decodeURIComponent(pathname);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}
