import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedConfig } from '../config/resolve-config.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { QuotaBook } from '../state/quota-book.js';
import { methodNotAllowed } from './agent-routes.js';
import { tokenMatches } from './guards.js';
import { keyBudgetUse } from './metrics-budgets.js';
import { metricFamilies } from './metrics-families.js';
import { METRICS_CONTENT_TYPE, renderMetrics } from './metrics-text.js';
import { dropUnreadBody } from './request-body.js';
import { sendError } from './respond.js';
import type { RequestTally } from './request-tally.js';

export interface MetricsRouteDeps {
  engine: RouterEngine;
  resolved: () => ResolvedConfig;
  quotas: QuotaBook;
  tally: RequestTally;
  token: string;
  /** Remote mode: a scrape wants the token, as `/api/*` reads do. */
  tokenForReads: boolean;
  startedAt: number;
}

/** The token of an `Authorization: Bearer <token>` header (how Prometheus sends one), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

/** A read of `/metrics` in remote mode: the API token as a bearer token or as `x-fcm-token`. */
function scrapeAuthorized(req: IncomingMessage, token: string): boolean {
  return (
    tokenMatches(bearerToken(req.headers.authorization), token) ||
    tokenMatches(req.headers['x-fcm-token'], token)
  );
}

/**
 * `GET /metrics`: the Prometheus text format (0.0.4) of the request counters since start, the breakers
 * and the keys' budget use. The server's Host and Origin guards ran before; the token is wanted where
 * `/api/*` reads want it (remote mode).
 */
export function handleMetrics(deps: MetricsRouteDeps, req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(req, res, 'GET');
  if (deps.tokenForReads && !scrapeAuthorized(req, deps.token)) {
    const message =
      'fcm-router: this router accepts remote connections: send the token (the token field of daemon.json in its state folder) as Authorization: Bearer';
    return sendError(res, 403, 'forbidden_token', message, { headers: dropUnreadBody(req) });
  }
  // The models routing uses (the sets' and the pinned ones), not the whole catalogue.
  const { models } = deps.engine.state();
  const body = renderMetrics(
    metricFamilies({
      tally: deps.tally,
      models,
      budgets: keyBudgetUse(
        deps.resolved(),
        deps.quotas,
        models.map((model) => model.key),
      ),
      inFlight: deps.engine.inFlight,
      startedAt: deps.startedAt,
    }),
  );
  res.writeHead(200, {
    'content-type': METRICS_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(method === 'HEAD' ? undefined : body);
}
