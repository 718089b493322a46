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
  to: setName.regex(/^[A-Za-z0-9._-]+$/, 'a set name: letters, digits, . _ -'),
});
const orderBody = z.strictObject({ set: setName, order: setOrderSchema });

/** Reads the file again, then answers 404 when no set is named `set`. */
async function knownSet({ deps, res }: ApiCall, set: string): Promise<boolean> {
  await deps.live.syncWithFile();
  if (Object.hasOwn(deps.live.resolved.sets, set)) return true;
  sendError(res, 404, 'set_not_found', `fcm-router: no set named "${set}"`);
  return false;
}

async function deleteSet(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, deleteBody);
  if (!read.ok || !(await knownSet(call, read.value.set))) return;
  const { set } = read.value;
  if (deps.live.resolved.activeSet === set) {
    const message = `"${set}" is the active set: switch agents to another set first`;
    sendError(res, 409, 'set_active', `fcm-router: ${message}`);
    return;
  }
  const result = await deps.live.update((raw, resolved) => withSetDeleted(raw, resolved.sets, set));
  answerEdit(res, result, deps.live);
}

async function renameSet(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, renameBody);
  if (!read.ok || !(await knownSet(call, read.value.set))) return;
  const { set, to } = read.value;
  if (to !== set && Object.hasOwn(deps.live.resolved.sets, to)) {
    const message = `a set named "${to}" exists: pick another name, or delete that set first`;
    sendError(res, 409, 'set_exists', `fcm-router: ${message}`, { extra: { param: 'to' } });
    return;
  }
  const result = await deps.live.update((raw, resolved) => withSetRenamed(raw, resolved.sets, set, to));
  answerEdit(res, result, deps.live);
}

async function setOrder(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, orderBody);
  if (!read.ok || !(await knownSet(call, read.value.set))) return;
  const { set, order } = read.value;
  const result = await deps.live.update((raw, resolved) => withSetOrder(raw, resolved.sets, set, order));
  answerEdit(res, result, deps.live);
}

/** The set routes, by `METHOD path`. */
export const SET_ROUTES: Readonly<Record<string, (call: ApiCall) => Promise<void>>> = {
  'POST /api/sets/delete': deleteSet,
  'POST /api/sets/rename': renameSet,
  'POST /api/sets/order': setOrder,
};
