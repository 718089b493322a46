/**
 * `POST /api/config/import`: `fcm-router import-fcm` with a daemon running sends what it read of a
 * free-coding-models config here, so the import is merged into the config in use by its one writer (and
 * applied at once) instead of written beside it.
 */
import { z } from 'zod/v3';
import type { ConfigImportResponse } from '../api-types.js';
import { validateConfig } from '../config/config-store.js';
import type { ConfigInput } from '../config/schema.js';
import type { FcmConfig } from '../import/fcm-config.js';
import { MAX_KEY_LENGTH } from '../import/fcm-keys.js';
import {
  knownProviders,
  planImport,
  type EffectiveSets,
  type ImportPlan,
  type ImportTarget,
} from '../import/import-plan.js';
import { answerUpdate, readJson } from './api-io.js';
import type { ApiCall } from './api-routes.js';
import { sendError, sendJson } from './respond.js';

const id = z.string().min(1).max(100);

/** One provider's keys as the CLI read them (`FcmKeys`). */
const fcmKeys = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('keys'),
    keys: z.array(z.string().min(1).max(MAX_KEY_LENGTH)).min(1).max(100),
  }),
  z.strictObject({
    kind: z.literal('env'),
    names: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
          .max(200),
      )
      .min(1)
      .max(50),
  }),
  z.strictObject({ kind: z.literal('unusable'), problem: z.string().min(1).max(1000) }),
]);

/** The import as the CLI read it (`FcmConfig`), and how to apply it. */
const importBody = z.strictObject({
  keys: z.record(id, fcmKeys),
  disabled: z.array(id).max(500),
  sets: z.record(id, z.array(z.string().min(1).max(300)).max(500)),
  activeSet: id.nullable(),
  force: z.boolean(),
  dryRun: z.boolean(),
});

/** The import planned against `raw`, which routes over `effective` now. */
function importTarget(raw: ConfigInput, effective: EffectiveSets, force: boolean): ImportTarget {
  return { current: raw, effective, known: knownProviders(raw), force };
}

function answerPlan(call: ApiCall, plan: ImportPlan, written: boolean): void {
  const body: ConfigImportResponse = {
    ok: true,
    lines: plan.lines,
    changed: plan.changed,
    written,
    path: call.deps.live.path,
  };
  sendJson(call.res, 200, body);
}

/** A dry run: the plan against the config in use (an edit on disk read first), nothing saved. */
async function dryRun(call: ApiCall, fcm: FcmConfig, force: boolean): Promise<void> {
  const { live } = call.deps;
  await live.syncWithFile();
  const plan = planImport(fcm, importTarget(live.raw, live.resolved.sets, force));
  const checked = validateConfig(plan.next);
  if (checked.ok) return answerPlan(call, plan, false);
  sendError(call.res, 400, 'invalid_config', 'fcm-router: the imported config would not be valid', {
    extra: { issues: checked.issues },
  });
}

/** Plans the import against the config in use and saves it through the live config. */
export async function importConfig(call: ApiCall): Promise<void> {
  const read = await readJson(call.req, call.res, importBody);
  if (!read.ok) return;
  const { force, dryRun: dry, ...fcm } = read.value;
  if (dry) return dryRun(call, fcm, force);
  const { live } = call.deps;
  let plan: ImportPlan | null = null;
  const result = await live.update((raw, resolved) => {
    plan = planImport(fcm, importTarget(raw, resolved.sets, force));
    return plan.next;
  });
  if (!result.ok || plan === null) return answerUpdate(call.res, result, live);
  answerPlan(call, plan, result.changed.length > 0);
}
