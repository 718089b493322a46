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

/** `url` without a trailing slash or `/v1`; throws a plain message when it is not an http(s) URL. */
export function routerOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--url must be a URL such as http://127.0.0.1:${DEFAULT_PORT}, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`--url must be an http or https URL, got "${url}"`);
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
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
