import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod/v3';
import type { LiveConfig, UpdateResult } from '../config/live-config.js';
import { modelKeySchema, type ConfigInput } from '../config/schema.js';
import { buildProviders } from '../engine/providers-view.js';
import { buildUsage } from '../engine/usage-view.js';
import { discoverModels } from '../engine/model-discovery.js';
import type { RouterEngine } from '../engine/router-engine.js';
import { parseJson } from '../gate/safe-json.js';
import type { Clock } from '../state/clock.js';
import type { DiscoveryBook } from '../state/discovery-book.js';
import type { QuotaBook } from '../state/quota-book.js';
import type { RequestHistory } from '../state/request-history.js';
import { readBody } from './read-body.js';
import { sendError, sendJson } from './respond.js';

export interface ApiDeps {
  engine: RouterEngine;
  live: LiveConfig;
  history: RequestHistory;
  quotas: QuotaBook;
  discovery: DiscoveryBook;
  clock: Clock;
}

const resetBody = z.strictObject({ model: modelKeySchema });
const discoverBody = z.strictObject({ provider: z.string().min(1).max(100) });
const keyBody = z.strictObject({ provider: z.string().min(1).max(100), apiKey: z.string().max(4096) });
const setBody = z.strictObject({ models: z.array(modelKeySchema).max(500) });
const activeBody = z.strictObject({ set: z.string().min(1).max(100) });
const pauseBody = z.strictObject({ paused: z.boolean() });

/** Reads and validates a small JSON body; answers 400 itself and returns null on bad input. */
async function readJson<T>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const read = await readBody(req, 1024 * 1024);
  if (!read.ok) {
    sendError(res, 413, 'request_too_large', 'fcm-router: body too large');
    return null;
  }
  const parsed = parseJson(read.body.toString('utf8'));
  if (!parsed.ok) {
    sendError(res, 400, 'invalid_json', `fcm-router: body is not valid JSON (${parsed.error})`);
    return null;
  }
  const checked = schema.safeParse(parsed.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.map(String).join('.') || 'body';
    sendError(res, 400, 'invalid_request', `fcm-router: ${where}: ${issue?.message ?? 'invalid'}`, {
      extra: { param: where },
    });
    return null;
  }
  return checked.data;
}

function answerUpdate(res: ServerResponse, result: UpdateResult, live: LiveConfig): void {
  if (result.ok) sendJson(res, 200, { ok: true, changed: result.changed, config: live.response().config });
  else {
    sendError(
      res,
      400,
      'invalid_config',
      `fcm-router: invalid config: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      {
        extra: { issues: result.issues },
      },
    );
  }
}

/** Materialises the effective sets into the raw config (with no `sets`, the derived default set). */
function withSets(
  raw: ConfigInput,
  sets: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  return raw.sets
    ? { ...raw.sets }
    : Object.fromEntries(Object.entries(sets).map(([name, keys]) => [name, [...keys]]));
}

/** The `/api/*` routes. Returns false when no route matched. Mutating routes are guarded by the server. */
export async function handleApi(
  deps: ApiDeps,
  method: string,
  pathname: string,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const { engine, live } = deps;
  const route = `${method} ${pathname}`;
  switch (route) {
    case 'GET /api/state':
      sendJson(res, 200, engine.state());
      return true;
    case 'GET /api/history': {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      sendJson(res, 200, {
        entries: deps.history.list(Number.isFinite(limit) ? limit : 50),
        stats: deps.history.stats(),
      });
      return true;
    }
    case 'GET /api/config':
      sendJson(res, 200, live.response());
      return true;
    case 'GET /api/providers':
      sendJson(res, 200, buildProviders(live.resolved, deps.quotas, deps.discovery));
      return true;
    case 'POST /api/providers/discover': {
      const body = await readJson(req, res, discoverBody);
      if (!body) return true;
      const result = await discoverModels(live, deps.quotas, deps.discovery, body.provider);
      if (result.ok) sendJson(res, 200, result);
      else sendError(res, result.status, result.code, `fcm-router: ${result.message}`);
      return true;
    }
    case 'GET /api/usage':
      sendJson(res, 200, buildUsage(live.resolved, deps.quotas, deps.clock()));
      return true;
    case 'PUT /api/config': {
      const body = await readJson(req, res, z.unknown());
      if (body === null) return true;
      answerUpdate(res, await live.replace(body), live);
      return true;
    }
    case 'POST /api/models/reset': {
      const body = await readJson(req, res, resetBody);
      if (!body) return true;
      if (engine.resetModel(body.model)) sendJson(res, 200, { ok: true });
      else sendError(res, 404, 'model_not_found', `fcm-router: unknown model "${body.model}"`);
      return true;
    }
    case 'POST /api/providers/key': {
      const body = await readJson(req, res, keyBody);
      if (!body) return true;
      if (!live.resolved.providers.has(body.provider)) {
        sendError(res, 404, 'provider_not_found', `fcm-router: unknown provider "${body.provider}"`);
        return true;
      }
      const result = await live.update((raw) => {
        const providers = { ...raw.providers };
        const { apiKey: _old, ...rest } = providers[body.provider] ?? {};
        providers[body.provider] = body.apiKey === '' ? rest : { ...rest, apiKey: body.apiKey };
        return { ...raw, providers };
      });
      if (result.ok) {
        deps.quotas.clearAuth(body.provider);
        sendJson(res, 200, { ok: true });
      } else answerUpdate(res, result, live);
      return true;
    }
    case 'POST /api/sets/active': {
      const body = await readJson(req, res, activeBody);
      if (!body) return true;
      if (!(body.set in live.resolved.sets)) {
        sendError(res, 404, 'set_not_found', `fcm-router: no set named "${body.set}"`);
        return true;
      }
      const result = await live.update((raw, resolved) => ({
        ...raw,
        sets: withSets(raw, resolved.sets),
        activeSet: body.set,
      }));
      if (result.ok) sendJson(res, 200, { ok: true });
      else answerUpdate(res, result, live);
      return true;
    }
    case 'POST /api/pause': {
      const body = await readJson(req, res, pauseBody);
      if (!body) return true;
      engine.setPaused(body.paused);
      sendJson(res, 200, { ok: true });
      return true;
    }
  }
  const setMatch = /^\/api\/sets\/([A-Za-z0-9._-]+)$/.exec(pathname);
  if (method === 'PUT' && setMatch?.[1]) {
    const name = setMatch[1];
    const body = await readJson(req, res, setBody);
    if (!body) return true;
    const result = await live.update((raw, resolved) => {
      const sets = { ...withSets(raw, resolved.sets), [name]: body.models };
      return { ...raw, sets, activeSet: raw.sets ? raw.activeSet : resolved.activeSet };
    });
    if (result.ok) sendJson(res, 200, { ok: true });
    else answerUpdate(res, result, live);
    return true;
  }
  return false;
}
