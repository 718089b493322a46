import type { ServerResponse } from 'node:http';
import { sendJson } from './respond.js';

/** `GET /v1/models`: `fcm`, each `fcm:<set>` and each `fcm:@provider/model`. */
export function handleModels(names: readonly string[], res: ServerResponse): void {
  sendJson(res, 200, {
    object: 'list',
    data: names.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fcm-router' })),
  });
}
