import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod/v3';
import type { LiveConfig } from '../config/live-config.js';
import { withProviderKey } from '../config/provider-key.js';
import { apiKeySchema, modelKeySchema } from '../config/schema.js';
import { hasOwnSets, withActiveSet, withSets } from '../config/set-edits.js';
import { buildProviders } from '../engine/views/providers-view.js';
import { buildUsage } from '../engine/views/usage-view.js';
import { discoverModels } from '../engine/watch/model-discovery.js';
import type { RouterEngine } from '../engine/router-engine.js';
import type { DailyCounters } from '../state/daily-counters.js';
import type { Time } from '../state/clock.js';
import type { DiscoveryBook } from '../state/discovery-book.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { QuotaBook } from '../state/quota-book.js';
import {
  DEFAULT_HISTORY_CAPACITY,
  DEFAULT_HISTORY_LIMIT,
  historyResponse,
  type RequestHistory,
} from '../state/request-history.js';
import { answerEdit, answerUpdate, readIfMatch, readJson } from './api-io.js';
import { checkConfig } from './config-check-route.js';
import { importConfig } from './import-route.js';
import { PROVIDER_ROUTES } from './provider-routes.js';
import { sendError, sendJson } from './respond.js';
import { SETUP_ROUTES } from './setup-route.js';
import { usageBudgets } from './usage-budgets.js';
import { SET_ROUTES } from './set-routes.js';

export interface ApiDeps {
  engine: RouterEngine;
  live: LiveConfig;
  history: RequestHistory;
  counters: DailyCounters;
  quotas: QuotaBook;
  /** The providers' model lists (model discovery). */
  discovery: DiscoveryBook;
  /** The calls to providers: a model list is fetched over the provider's own pool. */
  upstream: Pick<UpstreamClient, 'listModels'>;
  /** The router's time: its clock, and the event streams' heartbeat. */
  time: Time;
  /** Running in demo mode (`--demo`), over the simulated providers. */
  demo: boolean;
}

const resetBody = z.strictObject({ model: modelKeySchema });
const discoverBody = z.strictObject({ provider: z.string().min(1).max(100) });
const keyBody = z.strictObject({ provider: z.string().min(1).max(100), apiKey: apiKeySchema });
const setBody = z.strictObject({ models: z.array(modelKeySchema).max(500) });
const activeBody = z.strictObject({ set: z.string().min(1).max(100) });
const pauseBody = z.strictObject({ paused: z.boolean() });

/** `limit` of `/api/history`: one whole number from 1 to the history's capacity, or absent. */
function historyLimit(url: URL): { ok: true; limit: number } | { ok: false; message: string } {
  const values = url.searchParams.getAll('limit');
  if (values.length === 0) return { ok: true, limit: DEFAULT_HISTORY_LIMIT };
  const [value] = values;
  if (values.length > 1 || value === undefined || !/^\d{1,4}$/.test(value))
    return { ok: false, message: `limit must be one whole number from 1 to ${DEFAULT_HISTORY_CAPACITY}` };
  const limit = Number(value);
  if (limit < 1 || limit > DEFAULT_HISTORY_CAPACITY)
    return { ok: false, message: `limit must be from 1 to ${DEFAULT_HISTORY_CAPACITY}, got ${limit}` };
  return { ok: true, limit };
}

/** What one `/api/*` handler gets. */
export interface ApiCall {
  deps: ApiDeps;
  url: URL;
  req: IncomingMessage;
  res: ServerResponse;
}

function getHistory({ deps, url, res }: ApiCall): void {
  const limit = historyLimit(url);
  if (!limit.ok) {
    sendError(res, 400, 'invalid_request', `fcm-router: ${limit.message}`, { extra: { param: 'limit' } });
    return;
  }
  sendJson(res, 200, historyResponse(deps.history, deps.counters, limit.limit));
}

async function putConfig({ deps, req, res }: ApiCall): Promise<void> {
  const body = await readJson(req, res, z.unknown());
  if (!body.ok) return;
  const basedOn = readIfMatch(req, res);
  if (!basedOn.ok) return;
  answerUpdate(res, await deps.live.replace(body.value, basedOn.revision), deps.live);
}

async function resetModel({ deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, resetBody);
  if (!read.ok) return;
  const { model } = read.value;
  const reset = deps.engine.resetModel(model);
  if (reset) sendJson(res, 200, reset);
  else sendError(res, 404, 'model_not_found', `fcm-router: unknown model "${model}"`);
}

async function probeModel({ deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, resetBody);
  if (!read.ok) return;
  const { engine } = deps;
  const { model } = read.value;
  const refusal = engine.probeRefusal(model);
  if (refusal !== null) sendError(res, refusal.status, refusal.code, refusal.message);
  else sendJson(res, 200, await engine.probes.probe(model));
}

async function setProviderKey({ deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, keyBody);
  if (!read.ok) return;
  const body = read.value;
  const { live } = deps;
  // A provider added to the file by hand a moment ago is known once the file is read again.
  await live.syncWithFile();
  if (!live.resolved.providers.has(body.provider)) {
    sendError(res, 404, 'provider_not_found', `fcm-router: unknown provider "${body.provider}"`);
    return;
  }
  const result = await live.update((raw) => withProviderKey(raw, body.provider, body.apiKey));
  if (!result.ok) return answerUpdate(res, result, live);
  deps.quotas.clearAuth(body.provider);
  sendJson(res, 200, { ok: true });
}

async function setActiveSet({ deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, activeBody);
  if (!read.ok) return;
  const { set } = read.value;
  const { live } = deps;
  await live.syncWithFile();
  if (!Object.hasOwn(live.resolved.sets, set)) {
    sendError(res, 404, 'set_not_found', `fcm-router: no set named "${set}"`);
    return;
  }
  const result = await live.update((raw, resolved) => withActiveSet(raw, resolved.sets, set));
  answerEdit(res, result, live);
}

async function setPaused({ deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, pauseBody);
  if (!read.ok) return;
  deps.engine.setPaused(read.value.paused);
  sendJson(res, 200, { ok: true });
}

async function discoverProviderModels({ deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, discoverBody);
  if (!read.ok) return;
  const result = await discoverModels(deps, read.value.provider);
  if (result.ok) sendJson(res, 200, result);
  else sendError(res, result.status, result.code, `fcm-router: ${result.message}`);
}

async function putSet(name: string, { deps, req, res }: ApiCall): Promise<void> {
  const read = await readJson(req, res, setBody);
  if (!read.ok) return;
  const { models } = read.value;
  const { live } = deps;
  const result = await live.update((raw, resolved) => {
    const sets = { ...withSets(raw, resolved.sets), [name]: models };
    return { ...raw, sets, activeSet: hasOwnSets(raw) ? raw.activeSet : resolved.activeSet };
  });
  answerEdit(res, result, live);
}

/** Every fixed `/api/*` route, by `METHOD path`. */
const ROUTES: Readonly<Record<string, (call: ApiCall) => void | Promise<void>>> = {
  'GET /api/state': ({ deps, res }) => sendJson(res, 200, deps.engine.state()),
  'GET /api/history': getHistory,
  'GET /api/config': ({ deps, res }) => sendJson(res, 200, deps.live.response()),
  'GET /api/providers': ({ deps, res }) =>
    sendJson(res, 200, {
      ...buildProviders(deps.live.resolved, deps.quotas, {
        discovery: deps.discovery,
        probesSpent: (provider) => deps.engine.probes.spent(provider),
      }),
      // The revision of the config these settings were read from: a settings save sends it back.
      revision: deps.live.revision,
    }),
  'POST /api/providers/discover': discoverProviderModels,
  'GET /api/usage': ({ deps, res }) => {
    const usage = buildUsage(deps.live.resolved, deps.quotas, deps.time.now());
    sendJson(res, 200, { ...usage, budgets: usageBudgets(deps.live.resolved, deps.quotas, usage.today) });
  },
  'PUT /api/config': putConfig,
  'POST /api/config/check': checkConfig,
  'POST /api/config/import': importConfig,
  'POST /api/models/reset': resetModel,
  'POST /api/models/probe': probeModel,
  'POST /api/providers/key': setProviderKey,
  'POST /api/sets/active': setActiveSet,
  'POST /api/pause': setPaused,
  ...SETUP_ROUTES,
  ...PROVIDER_ROUTES,
  ...SET_ROUTES,
};

/**
 * The `/api/*` routes for `METHOD pathname` (the path as the request wrote it). Returns false when no route
 * matched. Mutating routes are guarded by the server.
 */
export async function handleApi(call: ApiCall, method: string, pathname: string): Promise<boolean> {
  const route = Object.hasOwn(ROUTES, `${method} ${pathname}`) ? ROUTES[`${method} ${pathname}`] : undefined;
  if (route !== undefined) {
    await route(call);
    return true;
  }
  const setMatch = /^\/api\/sets\/([^/]+)$/.exec(pathname);
  if (method === 'PUT' && setMatch?.[1]) {
    const name = setNameOf(setMatch[1]);
    if (name === null) {
      const message = 'fcm-router: a set name is letters, digits, . _ - (up to 100)';
      sendError(call.res, 400, 'invalid_request', message, { extra: { param: 'name' } });
    } else await putSet(name, call);
    return true;
  }
  return false;
}

/** The set name of a `PUT /api/sets/<name>` path segment, or null when it is not one. */
function setNameOf(segment: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return /^[A-Za-z0-9._-]{1,100}$/.test(name) ? name : null;
}
