/**
 * Where the agent should point: the running daemon's URL (or `--url`, or the default port) and, when the
 * router answers, the context window `/v1/models` lists for `fcm`.
 */
import { request } from 'undici';
import { z } from 'zod/v3';
import { DEFAULT_PORT } from '../config/port-setting.js';

/** What an agent's config is written from. */
export interface RouterTarget {
  /** The router's root, no trailing slash and no `/v1` (Claude Code's base URL). */
  origin: string;
  /** The active set's usable window, or null when the router did not say. */
  contextWindow: number | null;
}

/** The model every agent is pointed at. */
export const MODEL = 'fcm';
/** Any value works as the agent's key: the router holds the providers' keys and ignores the agent's. */
export const PLACEHOLDER_KEY = 'fcm-local';

const URL_EXAMPLE = `http://127.0.0.1:${DEFAULT_PORT}`;

/** What keeps `url` from being the address of a router, or null when nothing does. */
function urlProblem(url: string, parsed: URL): string | null {
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'is not an http or https URL';
  // The agent's base URL is this address with `/v1` added: a query or fragment would swallow it.
  if (url.includes('?')) return 'has a query (?…), which would come before the /v1 agents add';
  if (url.includes('#')) return 'has a fragment (#…), which would come before the /v1 agents add';
  // Written into the agent's config in clear; the router asks for no login anyway.
  if (parsed.username !== '' || parsed.password !== '' || /^[^/]*\/\/[^/]*@/.test(url))
    return 'holds a user name or password, which would be written into the agent’s config';
  return null;
}

/**
 * The router's root from `url` (`--url`, or the running daemon's): no trailing slash, no `/v1`, in the form
 * the URL parser writes it (characters a config file cannot hold as they are percent-encoded). Throws a
 * plain message naming what is wrong when it is not an http(s) address without query, fragment or login.
 */
export function routerOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--url must be a URL such as ${URL_EXAMPLE}, got ${JSON.stringify(url)}`);
  }
  const problem = urlProblem(url, parsed);
  if (problem !== null)
    throw new Error(`--url ${problem}: give the router's address, such as ${URL_EXAMPLE}`);
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${parsed.origin}${path}`;
}

/** The `/v1/models` shape we read: the `context_window` of each listed model, when known. */
const modelsSchema = z.object({
  data: z.array(z.object({ id: z.string(), context_window: z.number().int().positive().optional() })),
});

/** The window `/v1/models` of the router at `origin` lists for `fcm`; null when it does not answer. */
export async function fetchContextWindow(origin: string, timeoutMs = 2000): Promise<number | null> {
  try {
    const res = await request(`${origin}/v1/models`, { signal: AbortSignal.timeout(timeoutMs) });
    const body: unknown = await res.body.json();
    if (res.statusCode !== 200) return null;
    const parsed = modelsSchema.safeParse(body);
    if (!parsed.success) return null;
    return parsed.data.data.find((model) => model.id === MODEL)?.context_window ?? null;
  } catch {
    return null;
  }
}
