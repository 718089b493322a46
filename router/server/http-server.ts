import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HealthResponse } from '../api-types.js';
import type { EventBus } from '../engine/event-bus.js';
import type { RouterEngine } from '../engine/router-engine.js';
import { ResponseItemStore } from '../faces/index.js';
import type { RouterLogger } from '../public-types.js';
import { INTERNAL_ERROR_ANSWER } from '../engine/answer/final-answer.js';
import { logText } from '../engine/views/log-text.js';
import { faultTrace } from '../upstream/exchange-errors.js';
import { handleApi, type ApiDeps } from './api-routes.js';
import {
  agentFaces,
  handleAgentRoute,
  methodNotAllowed,
  refuseOnFace,
  type AnyFace,
} from './agent-routes.js';
import { dropUnreadBody, PendingBodies } from './request-body.js';
import { EventsRoute } from './events-route.js';
import { isAllowedHost, isAllowedOrigin, isForeignFetch, isJsonContentType, tokenMatches } from './guards.js';
import { cutLateBody, lateBodyEncoder } from './late-body.js';
import { handleMetrics } from './metrics-route.js';
import { RequestTally } from './request-tally.js';
import { sendError, sendJson } from './respond.js';
import { StaticRoute } from './static-route.js';
import { serveWebviewCors } from './webview-cors.js';

/** What the server needs: the `/api/*` routes' parts, and its own. */
export interface ServerDeps extends ApiDeps {
  events: EventBus;
  rendererDir: string;
  /** Per-start secret the dashboard sends on every mutating `/api/*` call. */
  token: string;
  /** Remote mode (`--allow-remote`): reads of `/api/*` want the token too, and the page holds none. */
  tokenForReads: boolean;
  version: string;
  startedAt: number;
  logger: RouterLogger;
}

export interface RouterServer {
  server: Server;
  events: EventsRoute;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How often Node checks the headers' deadline: it is enforced within this much. */
const DEADLINE_CHECK_MS = 1000;

/** A guard's refusal, before any route reads the request. */
interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** The dashboard's API (its event stream included) and the metrics: for the router's own page and scripts. */
function isDashboardData(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname === '/metrics';
}

/**
 * Host, Origin, another page's request for the dashboard's data, and the cap on bodies still arriving, for
 * every request. Null when it may pass (its body, if one is still arriving, then has its deadline).
 */
function guardRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  pending: PendingBodies,
): Refusal | null {
  if (!isAllowedHost(req.headers.host)) {
    const message = 'fcm-router: Host header must be a loopback name or an IP address';
    return { status: 403, code: 'forbidden_host', message };
  }
  if (!isAllowedOrigin(req.headers.origin, req.headers.host, pathname.startsWith('/v1/')))
    return {
      status: 403,
      code: 'forbidden_origin',
      message: 'fcm-router: cross-site requests are refused',
    };
  if (isDashboardData(pathname) && isForeignFetch(req.headers['sec-fetch-site'])) {
    const message =
      "fcm-router: the browser says another site's page made this request (Sec-Fetch-Site): the dashboard's API answers its own page only";
    return { status: 403, code: 'forbidden_fetch_site', message };
  }
  if (!pending.admit(req, res)) {
    const message = 'fcm-router: too many requests are still sending their bodies; retry shortly';
    return { status: 503, code: 'server_busy', message };
  }
  return null;
}

/**
 * Writes a guard's refusal: on an agent's path in its face's shape, elsewhere OpenAI-shaped. A face's
 * `server_busy` is an agent's request turned away, recorded in `engine`; a foreign Host or Origin is not
 * recorded: it comes from a web page, which must not be able to write to the router's history.
 */
function refuse(
  call: { req: IncomingMessage; res: ServerResponse; engine: RouterEngine },
  face: AnyFace | undefined,
  refusal: Refusal,
): void {
  const { req, res } = call;
  const extra: Record<string, string> = dropUnreadBody(req);
  if (refusal.status === 503) Object.assign(extra, { 'retry-after': '1', connection: 'close' });
  if (face === undefined) {
    sendError(res, refusal.status, refusal.code, refusal.message, { headers: extra });
    return;
  }
  const type = refusal.status === 503 ? 'service_unavailable' : 'permission_error';
  const error = {
    status: refusal.status,
    code: refusal.code,
    type,
    message: refusal.message,
    retryAfterSec: null,
  };
  const recordIn = refusal.code === 'server_busy' ? call.engine : undefined;
  refuseOnFace(face, req, res, error, { headers: extra, ...(recordIn ? { recordIn } : {}) });
}

/**
 * The last stand against a throw no route contained: 500 `internal_error`, on an agent's path in its
 * face's shape with the decision headers (the face route contains its own faults; this catches the rest).
 */
function answerInternalError(req: IncomingMessage, res: ServerResponse, face: AnyFace | undefined): void {
  try {
    if (face !== undefined)
      return refuseOnFace(face, req, res, INTERNAL_ERROR_ANSWER, { outcome: 'internal_error' });
  } catch {
    // Even the face's refusal threw: the plain answer below.
  }
  if (!res.headersSent) sendError(res, 500, 'internal_error', 'fcm-router: internal error');
}

/** `GET /health`: alive, which version, since when, which process. */
function sendHealth(deps: ServerDeps, res: ServerResponse): void {
  const health: HealthResponse = {
    ok: true,
    name: 'fcm-router',
    version: deps.version,
    uptimeMs: deps.time.now() - deps.startedAt,
    pid: process.pid,
  };
  sendJson(res, 200, health);
}

/** One request to a route: its method, its path (without the query), its whole target, and its streams. */
interface HttpCall {
  method: string;
  pathname: string;
  target: string;
  req: IncomingMessage;
  res: ServerResponse;
}

/** A request target's path, without its query: plain string work, as a URL object per request is measurable on the chat hot path. */
function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** The `token` query parameter of a target, or undefined. */
function queryToken(target: string): string | undefined {
  const query = target.indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams(target.slice(query + 1)).get('token') ?? undefined;
}

/**
 * A read in remote mode: the token in `x-fcm-token`; the event stream alone may carry it as `?token=`
 * instead, since an EventSource cannot send headers. Nothing logs a request's query.
 */
function readAuthorized(deps: ServerDeps, call: HttpCall): boolean {
  if (tokenMatches(call.req.headers['x-fcm-token'], deps.token)) return true;
  return call.pathname === '/api/events' && tokenMatches(queryToken(call.target), deps.token);
}

/** The token checks of `/api/*`, then its routes (events included). */
async function handleApiRequest(deps: ServerDeps, eventsRoute: EventsRoute, call: HttpCall): Promise<void> {
  const { method, pathname, target, req, res } = call;
  const refuseApi = (status: number, code: string, message: string): void =>
    sendError(res, status, code, message, { headers: dropUnreadBody(req) });
  if (deps.tokenForReads && !MUTATING.has(method) && !readAuthorized(deps, call))
    return refuseApi(
      403,
      'forbidden_token',
      'fcm-router: this router accepts remote connections: send x-fcm-token, or open the dashboard as /#token=<token> (the token field of daemon.json in its state folder)',
    );
  if (MUTATING.has(method)) {
    if (!tokenMatches(req.headers['x-fcm-token'], deps.token))
      return refuseApi(
        403,
        'forbidden_token',
        'fcm-router: missing or wrong x-fcm-token: the dashboard sends it (reload it); scripts read it from the token field of daemon.json in the state folder',
      );
    if (!isJsonContentType(req.headers['content-type']))
      return refuseApi(415, 'unsupported_media_type', 'fcm-router: send application/json');
  }
  if (method === 'GET' && pathname === '/api/events') return eventsRoute.handle(res);
  const url = new URL(target, 'http://router.invalid');
  if (await handleApi({ deps, url, req, res }, method, pathname)) return;
  refuseApi(404, 'not_found', `fcm-router: no route ${method} ${pathname}`);
}

/**
 * The dashboard's files. An address with the right `?token=` is sent on to `/#token=`: a fragment never
 * leaves the browser, where a query or a cookie would reach other servers on the same host (a cookie is
 * sent to every port). Loopback too, so an address made for a remote-mode daemon works on any.
 */
async function handlePage(deps: ServerDeps, staticRoute: StaticRoute, call: HttpCall): Promise<void> {
  const { method, pathname, target, req, res } = call;
  if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(req, res, 'GET');
  if (tokenMatches(queryToken(target), deps.token)) {
    res.writeHead(303, {
      location: `${pathname}#token=${encodeURIComponent(deps.token)}`,
      'cache-control': 'no-store',
    });
    res.end();
    return;
  }
  await staticRoute.handle(pathname, res);
}

/**
 * The router's HTTP face: guards (Host, Origin, another page's fetch, bodies still arriving), then the agent routes (`/v1/*`),
 * the dashboard API and events, and the dashboard itself. CORS headers go to editor webviews on `/v1` only.
 */
export function createRouterServer(deps: ServerDeps): RouterServer {
  const eventsRoute = new EventsRoute(deps.events, deps.time);
  // In remote mode the page is served to anyone, so it carries no token: the browser brings its own.
  const staticRoute = new StaticRoute(deps.rendererDir, deps.tokenForReads ? '' : deps.token);
  const limits = () => deps.live.resolved.config.router.server;
  // The Responses face's kept items: this router's, in memory only.
  const items = new ResponseItemStore({ clock: deps.time.now });
  const agent = { engine: deps.engine, live: deps.live, faces: agentFaces({ items, clock: deps.time.now }) };
  const pendingBodies = new PendingBodies(limits, deps.time, (req, res) =>
    cutLateBody(req, res, {
      deadlineMs: limits().requestBodyTimeoutMs,
      encoder: lateBodyEncoder(agent.faces, pathOf(req.url ?? '/')),
    }),
  );
  // `/metrics` counts finished requests since start, off the request path (after the answer ended).
  const tally = new RequestTally();
  deps.events.on('request', (event) => tally.record(event.entry));
  const metrics = { ...deps, resolved: () => deps.live.resolved, tally };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const pathname = pathOf(target);
    const isAgentPath = pathname.startsWith('/v1/');
    const refusal = guardRefusal(req, res, pathname, pendingBodies);
    if (refusal !== null)
      return refuse({ req, res, engine: deps.engine }, agent.faces.get(pathname), refusal);
    if (pathname === '/health') return sendHealth(deps, res);
    if (pathname === '/metrics') return handleMetrics(metrics, req, res);
    if (isAgentPath) {
      if (serveWebviewCors(req, res)) return;
      return handleAgentRoute(agent, method, pathname, req, res);
    }
    const call = { method, pathname, target, req, res };
    if (pathname.startsWith('/api/')) return handleApiRequest(deps, eventsRoute, call);
    return handlePage(deps, staticRoute, call);
  };

  // The body's deadline is the router's own (PendingBodies, on its time); Node's bounds the headers only.
  const timeouts = (): { requestTimeout: number; headersTimeout: number } => ({
    requestTimeout: 0,
    headersTimeout: Math.min(30_000, limits().requestBodyTimeoutMs),
  });
  const server = createServer(
    { ...timeouts(), keepAliveTimeout: 65_000, connectionsCheckingInterval: DEADLINE_CHECK_MS },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        const { pathname } = new URL(req.url ?? '/', 'http://x');
        deps.logger.error(`internal error on ${req.method} ${logText(pathname)}: ${faultTrace(error)}`);
        if (res.headersSent) res.destroy();
        else answerInternalError(req, res, agent.faces.get(pathname));
      });
    },
  );
  // Node reads both on every check: a config change applies to the requests that follow.
  deps.events.on('config', () => Object.assign(server, timeouts()));
  return { server, events: eventsRoute };
}
