import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HealthResponse } from '../api-types.js';
import type { LiveConfig } from '../config/live-config.js';
import type { EventBus } from '../engine/event-bus.js';
import { advertisedModelNames, pinnableModels } from '../engine/model-names.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { RouterLogger } from '../public-types.js';
import type { Clock } from '../state/clock.js';
import type { DailyCounters } from '../state/daily-counters.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { RequestHistory } from '../state/request-history.js';
import { handleApi } from './api-routes.js';
import { handleChat, handleModels, rejectionHeaders } from './chat-route.js';
import { PendingBodies } from './body-gate.js';
import { EventsRoute } from './events-route.js';
import {
  isAllowedHost,
  isAllowedOrigin,
  isJsonContentType,
  readAuthorized,
  TOKEN_COOKIE,
  tokenMatches,
} from './guards.js';
import { lingerAfterRefusal } from './read-body.js';
import { sendError, sendJson } from './respond.js';
import { StaticRoute } from './static-route.js';

export interface ServerDeps {
  engine: RouterEngine;
  live: LiveConfig;
  history: RequestHistory;
  counters: DailyCounters;
  quotas: QuotaBook;
  events: EventBus;
  rendererDir: string;
  /** Per-start secret the dashboard sends on every mutating `/api/*` call. */
  token: string;
  /** Remote mode (`--allow-remote`): reads of `/api/*` and the dashboard page want the token too. */
  tokenForReads: boolean;
  version: string;
  startedAt: number;
  clock: Clock;
  logger: RouterLogger;
}

export interface RouterServer {
  server: Server;
  events: EventsRoute;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How often Node checks the request deadline: the deadline is enforced within this much. */
const DEADLINE_CHECK_MS = 1000;

/**
 * The router's HTTP face: guards (Host, Origin, token, content type, size), then the chat API, the
 * dashboard API and events, and the dashboard itself. No CORS headers are ever sent.
 */
export function createRouterServer(deps: ServerDeps): RouterServer {
  const eventsRoute = new EventsRoute(deps.events);
  const staticRoute = new StaticRoute(deps.rendererDir, deps.token);
  const limits = () => deps.live.resolved.config.router.server;
  const pendingBodies = new PendingBodies(() => limits().maxPendingBodies);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    // Plain string work: a URL object per request is measurable on the chat hot path.
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    const isChat = pathname.startsWith('/v1/');
    const chatHeaders = (): Record<string, string> | undefined =>
      pathname === '/v1/chat/completions' ? rejectionHeaders(req) : undefined;
    if (!isAllowedHost(req.headers.host)) {
      req.resume();
      sendError(
        res,
        403,
        'forbidden_host',
        'fcm-router: Host header must be a loopback name or an IP address',
        {
          headers: chatHeaders(),
        },
      );
      return;
    }
    if (!isAllowedOrigin(req.headers.origin, req.headers.host, isChat)) {
      req.resume();
      sendError(res, 403, 'forbidden_origin', 'fcm-router: cross-site requests are refused', {
        headers: chatHeaders(),
      });
      return;
    }
    if (!pendingBodies.admit(req)) {
      lingerAfterRefusal(req);
      sendError(
        res,
        503,
        'server_busy',
        'fcm-router: too many requests are still sending their bodies; retry shortly',
        { headers: { ...chatHeaders(), 'retry-after': '1', connection: 'close' } },
      );
      return;
    }
    if (pathname === '/health') {
      const health: HealthResponse = {
        ok: true,
        name: 'fcm-router',
        version: deps.version,
        uptimeMs: deps.clock() - deps.startedAt,
        pid: process.pid,
      };
      sendJson(res, 200, health);
      return;
    }
    if (pathname === '/v1/chat/completions') {
      if (method !== 'POST') return methodNotAllowed(req, res, 'POST', chatHeaders());
      await handleChat(deps.engine, req, res);
      return;
    }
    if (pathname === '/v1/models') {
      if (method !== 'GET') return methodNotAllowed(req, res, 'GET');
      handleModels(advertisedModelNames(deps.live.resolved.sets, pinnableModels(deps.live.resolved)), res);
      return;
    }
    if (isChat) {
      req.resume();
      sendError(res, 404, 'not_found', `fcm-router: no route ${method} ${pathname}`);
      return;
    }
    if (pathname.startsWith('/api/')) {
      if (deps.tokenForReads && !MUTATING.has(method) && !readAuthorized(req.headers, deps.token)) {
        req.resume();
        sendError(
          res,
          403,
          'forbidden_token',
          'fcm-router: this router accepts remote connections: send x-fcm-token (the token field of daemon.json in its state folder)',
        );
        return;
      }
      if (MUTATING.has(method)) {
        if (!tokenMatches(req.headers['x-fcm-token'], deps.token)) {
          req.resume();
          sendError(
            res,
            403,
            'forbidden_token',
            'fcm-router: missing or wrong x-fcm-token: the dashboard sends it (reload it); scripts read it from the token field of daemon.json in the state folder',
          );
          return;
        }
        if (!isJsonContentType(req.headers['content-type'])) {
          req.resume();
          sendError(res, 415, 'unsupported_media_type', 'fcm-router: send application/json');
          return;
        }
      }
      if (method === 'GET' && pathname === '/api/events') {
        eventsRoute.handle(res);
        return;
      }
      if (await handleApi(deps, method, pathname, new URL(target, 'http://router.invalid'), req, res)) return;
      req.resume();
      sendError(res, 404, 'not_found', `fcm-router: no route ${method} ${pathname}`);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(req, res, 'GET');
    if (deps.tokenForReads && query !== -1) {
      const sent = new URLSearchParams(target.slice(query + 1)).get('token');
      if (sent !== null && tokenMatches(sent, deps.token)) {
        // Signed in: the cookie carries the token from now on, and the address loses it.
        res.writeHead(303, {
          location: pathname,
          'set-cookie': `${TOKEN_COOKIE}=${deps.token}; Path=/; HttpOnly; SameSite=Strict`,
          'cache-control': 'no-store',
        });
        res.end();
        return;
      }
    }
    await staticRoute.handle(pathname, res, !deps.tokenForReads || readAuthorized(req.headers, deps.token));
  };

  const timeouts = (): { requestTimeout: number; headersTimeout: number } => {
    const requestTimeout = limits().requestBodyTimeoutMs;
    return { requestTimeout, headersTimeout: Math.min(30_000, requestTimeout) };
  };
  const server = createServer(
    { ...timeouts(), keepAliveTimeout: 65_000, connectionsCheckingInterval: DEADLINE_CHECK_MS },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        deps.logger.error(
          `internal error on ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!res.headersSent) sendError(res, 500, 'internal_error', 'fcm-router: internal error');
        else res.destroy();
      });
    },
  );
  // Node reads both on every check: a config change applies to the requests that follow.
  deps.events.on('config', () => Object.assign(server, timeouts()));
  return { server, events: eventsRoute };
}

function methodNotAllowed(
  req: IncomingMessage,
  res: ServerResponse,
  allow: string,
  headers: Record<string, string> = {},
): void {
  req.resume();
  sendError(res, 405, 'method_not_allowed', `fcm-router: use ${allow}`, { headers: { ...headers, allow } });
}
