/**
 * The Models view's set management: delete a set, rename one, and choose how a set orders its models
 * (`priority` or `fastest`). Changes go through the live config (validated, saved by its guarded writer).
 */
import { z } from 'zod/v3';
import { setOrderSchema } from '../config/schema.js';
import { withSetDeleted, withSetOrder, withSetRenamed } from '../config/set-edits.js';
import { answerEdit, readJson } from './api-io.js';
import type { ApiCall } from './api-routes.js';
import { sendError } from './respond.js';

const setName = z.string().min(1).max(100);
const deleteBody = z.strictObject({ set: setName });
const renameBody = z.strictObject({
  set: setName,
  to: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'a set name: use letters, digits, . _ - (up to 100)'),
});
const orderBody = z.strictObject({ set: setName, order: setOrderSchema });

/**
 * Reads a set call's body and the config file again; null once it has answered (a bad body, or a 404 when
 * no set is named `set`).
 */
async function readSetCall<T extends { set: string }>(
  call: ApiCall,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, schema);
  if (!read.ok) return null;
  await deps.live.syncWithFile();
  if (Object.hasOwn(deps.live.resolved.sets, read.value.set)) return read.value;
  sendError(res, 404, 'set_not_found', `fcm-router: no set named "${read.value.set}"`);
  return null;
}

async function deleteSet(call: ApiCall): Promise<void> {
  const { deps, res } = call;
  const body = await readSetCall(call, deleteBody);
  if (body === null) return;
  const { set } = body;
  if (deps.live.resolved.activeSet === set) {
    const message = `"${set}" is the active set: switch agents to another set first`;
    sendError(res, 409, 'set_active', `fcm-router: ${message}`);
    return;
  }
  const result = await deps.live.update((raw, resolved) => withSetDeleted(raw, resolved.sets, set));
  answerEdit(res, result, deps.live);
}

async function renameSet(call: ApiCall): Promise<void> {
  const { deps, res } = call;
  const body = await readSetCall(call, renameBody);
  if (body === null) return;
  const { set, to } = body;
  if (to !== set && Object.hasOwn(deps.live.resolved.sets, to)) {
    const message = `a set named "${to}" exists: pick another name, or delete that set first`;
    sendError(res, 409, 'set_exists', `fcm-router: ${message}`, { extra: { param: 'to' } });
    return;
  }
  const result = await deps.live.update((raw, resolved) => withSetRenamed(raw, resolved.sets, set, to));
  answerEdit(res, result, deps.live);
}

async function setOrder(call: ApiCall): Promise<void> {
  const { deps, res } = call;
  const body = await readSetCall(call, orderBody);
  if (body === null) return;
  const { set, order } = body;
  const result = await deps.live.update((raw, resolved) => withSetOrder(raw, resolved.sets, set, order));
  answerEdit(res, result, deps.live);
}

/** The set routes, by `METHOD path`. */
export const SET_ROUTES: Readonly<Record<string, (call: ApiCall) => Promise<void>>> = {
  'POST /api/sets/delete': deleteSet,
  'POST /api/sets/rename': renameSet,
  'POST /api/sets/order': setOrder,
};
