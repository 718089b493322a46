/**
 * A provider's model list (`GET <baseUrl>/models`, the OpenAI shape `{ data: [{ id }] }`), for model
 * discovery. One bounded request over the provider's own dispatcher: a deadline, a size limit, and a validated
 * body.
 */
import { request, type Dispatcher } from 'undici';
import { z } from 'zod/v3';
import type { Time } from '../state/clock.js';

const MAX_BYTES = 4 * 1024 * 1024;
/** The whole request's deadline, on the router's time. */
export const MODELS_LIST_TIMEOUT_MS = 15_000;

/** A context window a list gives: a whole number of tokens, anything else is not one. */
const windowSchema = z.number().int().positive().max(100_000_000).optional().catch(undefined);

const listSchema = z
  .object({
    data: z.array(
      z
        .object({ id: z.string().min(1), context_length: windowSchema, context_window: windowSchema })
        .passthrough(),
    ),
  })
  .passthrough();

/** The ids a provider lists, and the context window of each that has one (`context_length`, `context_window`). */
export type ModelsListResult =
  { ok: true; ids: string[]; windows: Record<string, number> } | { ok: false; error: string };

/** Where a provider's list is asked for, and with which key and headers. */
export interface ModelsListTarget {
  baseUrl: string;
  apiKey: string | null;
  headers: Readonly<Record<string, string>>;
}

/** Fetches the model ids a provider lists for this key, within the deadline on `time`; never throws. */
export async function fetchModelIds(
  target: ModelsListTarget,
  time: Time,
  dispatcher: Dispatcher,
): Promise<ModelsListResult> {
  const { baseUrl, apiKey, headers } = target;
  const deadline = new AbortController();
  const timer = time.setTimeout(() => deadline.abort(timedOut()), MODELS_LIST_TIMEOUT_MS);
  try {
    const res = await request(`${baseUrl}/models`, {
      method: 'GET',
      headers: {
        ...headers,
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      signal: deadline.signal,
      dispatcher,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BYTES) {
        res.body.destroy();
        return { ok: false, error: `the model list is over ${MAX_BYTES} bytes` };
      }
      chunks.push(chunk);
    }
    if (res.statusCode < 200 || res.statusCode >= 300)
      return { ok: false, error: `the provider answered HTTP ${res.statusCode}` };
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return { ok: false, error: 'the model list is not JSON' };
    }
    const parsed = listSchema.safeParse(body);
    if (!parsed.success) return { ok: false, error: 'the model list is not { data: [{ id }] }' };
    // One page of several cannot tell which models are gone: better no list than models skipped wrongly.
    if (hasMorePages(parsed.data))
      return { ok: false, error: 'the model list comes in more pages than one; none was used' };
    const windows: Record<string, number> = {};
    for (const model of parsed.data.data) {
      const window = model.context_length ?? model.context_window;
      if (window !== undefined) windows[requestId(model.id)] = window;
    }
    return { ok: true, ids: [...new Set(parsed.data.data.map((model) => requestId(model.id)))], windows };
  } catch (error) {
    const name = error instanceof Error ? error.name : 'error';
    return { ok: false, error: `the model list could not be fetched (${name})` };
  } finally {
    time.clearTimeout(timer);
  }
}

function timedOut(): Error {
  const error = new Error(`no model list within ${MODELS_LIST_TIMEOUT_MS} ms`);
  error.name = 'TimeoutError';
  return error;
}

/** A list that says more is to come: `has_more` (OpenAI's, Anthropic's) or a next-page token (Google's). */
function hasMorePages(list: Record<string, unknown>): boolean {
  const token = (value: unknown): boolean => typeof value === 'string' && value !== '';
  return list.has_more === true || token(list.nextPageToken) || token(list.next_page_token);
}

/**
 * A listed id as requests name the model: Google's OpenAI-compatible list says `models/gemini-2.5-flash`,
 * its chat completions take `gemini-2.5-flash`.
 */
function requestId(listed: string): string {
  return listed.startsWith('models/') ? listed.slice('models/'.length) : listed;
}
