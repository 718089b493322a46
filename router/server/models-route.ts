import type { ServerResponse } from 'node:http';
import type { ModelsListResponse } from '../api-types.js';
import { sendJson } from './respond.js';

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
  const body: ModelsListResponse = {
    object: 'list',
    data: names.map((id) => {
      const window = windowOf(id);
      const sizes =
        window === null ? {} : { context_window: window, context_length: window, max_model_len: window };
      return { id, object: 'model', created: 0, owned_by: 'fcm-router', ...sizes };
    }),
  };
  sendJson(res, 200, body);
}
