import type { ServerResponse } from 'node:http';
import type { ModelsListResponse } from '../api-types.js';
import { sendError, sendJson } from './respond.js';

type ModelEntry = ModelsListResponse['data'][number];

/** One name as the model list gives it, with the window an agent should plan for where one is known. */
function modelEntry(id: string, windowOf: (name: string) => number | null): ModelEntry {
  const window = windowOf(id);
  const sizes =
    window === null ? {} : { context_window: window, context_length: window, max_model_len: window };
  return { id, object: 'model', created: 0, owned_by: 'fcm-router', ...sizes };
}

/**
 * `GET /v1/models`: `fcm`, each `fcm:<set>` and each `fcm:@provider/model`, each with the context window an
 * agent should plan for where one is known, under the names clients read it by (`context_window`,
 * `context_length`, `max_model_len`).
 */
export function handleModels(
  names: readonly string[],
  windowOf: (name: string) => number | null,
  res: ServerResponse,
): void {
  const body: ModelsListResponse = { object: 'list', data: names.map((id) => modelEntry(id, windowOf)) };
  sendJson(res, 200, body);
}

/**
 * `GET /v1/models/<id>`: the list's entry for one name (`id` as it follows `/v1/models/`, still
 * percent-encoded), or a 404 `model_not_found` as OpenAI's API answers a name it does not serve.
 */
export function handleModel(
  names: readonly string[],
  windowOf: (name: string) => number | null,
  encodedId: string,
  res: ServerResponse,
): void {
  const id = decodedOrNull(encodedId);
  if (id !== null && names.includes(id)) return sendJson(res, 200, modelEntry(id, windowOf));
  const shown = id ?? encodedId;
  const message = `fcm-router: no model "${shown}" here; GET /v1/models lists the names to use`;
  sendError(res, 404, 'model_not_found', message, { extra: { param: 'model' } });
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
