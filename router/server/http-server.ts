import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HealthResponse } from '../api-types.js';
import type { LiveConfig } from '../config/live-config.js';
import type { EventBus } from '../engine/event-bus.js';
import { advertisedModelNames, pinnableModels } from '../engine/model-names.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { RouterLogger } from '../public-types.js';
import type { Clock } from '../state/clock.js';
import type { DiscoveryBook } from '../state/discovery-book.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { RequestHistory } from '../state/request-history.js';
import { handleApi } from './api-routes.js';
import { handleCountTokens } from './count-tokens-route.js';
import { handleFace, rejectionHeaders } from './face-route.js';
import { chatFace, messagesFace, responsesFace } from './face-specs.js';
import { handleModels } from './models-route.js';
import { EventsRoute } from './events-route.js';
import { isAllowedHost, isAllowedOrigin, isJsonContentType, tokenMatches } from './guards.js';
import { sendError, sendJson } from './respond.js';
import { StaticRoute } from './static-route.js';

export interface ServerDeps {
  engine: RouterEngine;
  live: LiveConfig;
  history: RequestHistory;
  quotas: QuotaBook;
  /** The providers' model lists (model discovery). */
  discovery: DiscoveryBook;
  events: EventBus;
  rendererDir: string;
  /** Per-start secret the dashboard sends on every mutating `/api/*` call. */
  token: string;
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

/**
 * The router's HTTP face: guards (Host, Origin, token, content type, size), then the chat API, the
 * dashboard API and events, and the dashboard itself. No CORS headers are ever sent.
 */
export function createRouterServer(deps: ServerDeps): RouterServer {
  const eventsRoute = new EventsRoute(deps.events);
  const staticRoute = new StaticRoute(deps.rendererDir, deps.token);
  /** The agent protocols: chat completions, Anthropic Messages (Claude Code), OpenAI Responses (Codex). */
  const faceRoutes = new Map<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>([
    ['/v1/chat/completions', (req, res) => handleFace(deps.engine, chatFace, req, res)],
    ['/v1/messages', (req, res) => handleFace(deps.engine, messagesFace, req, res)],
    ['/v1/responses', (req, res) => handleFace(deps.engine, responsesFace, req, res)],
  ]);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    // Plain string work: a URL object per request is measurable on the chat hot path.
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const pathname = query === -1 ? target : target.slice(0, query);
    const isChat = pathname.startsWith('/v1/');
    const face = faceRoutes.get(pathname);
    const chatHeaders = (): Record<string, string> | undefined =>
      face !== undefined ? rejectionHeaders(req) : undefined;
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
    if (face !== undefined) {
      if (method !== 'POST') return methodNotAllowed(req, res, 'POST', chatHeaders());
      await face(req, res);
      return;
    }
    if (pathname === '/v1/messages/count_tokens') {
      if (method !== 'POST') return methodNotAllowed(req, res, 'POST');
      await handleCountTokens(req, res);
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
      if (MUTATING.has(method)) {
        if (!tokenMatches(req.headers['x-fcm-token'], deps.token)) {
          req.resume();
          sendError(
            res,
            403,
            'forbidden_token',
            'fcm-router: missing or wrong x-fcm-token (reload the dashboard)',
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
    await staticRoute.handle(pathname, res);
  };

  const server = createServer({ requestTimeout: 0, keepAliveTimeout: 65_000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.logger.error(
        `internal error on ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!res.headersSent) sendError(res, 500, 'internal_error', 'fcm-router: internal error');
      else res.destroy();
    });
  });
  server.headersTimeout = 30_000;
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
