/**
 * The Providers view's writes: add a provider, add or remove a key (a removal can be undone for a while),
 * and a provider's probes and limits. Every change goes through the live config (validated by the config's
 * schema, saved by its guarded writer); a key never comes back out, only its fingerprint.
 */
import { z } from 'zod/v3';
import type { LiveConfig } from '../config/live-config.js';
import {
  withAddedKey,
  withNewProvider,
  withoutKey,
  type NewProvider,
  withProviderSettings,
  withRestoredKey,
} from '../config/provider-edits.js';
import { validateConfig } from '../config/config-store.js';
import { headerDigests, headersAddedOrChanged } from '../config/secrets.js';
import { hasUnshownName } from '../config/issue-paths.js';
import {
  apiKeySchema,
  headerNameProblem,
  isModelIdText,
  MODEL_ID_MESSAGE,
  providerIdProblem,
  type ConfigInput,
  type ConfigIssue,
} from '../config/schema.js';
import { HeldKeys, HOLD_MS, type HeldKey } from '../state/held-keys.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { answerEdit, answerUpdate, readIfMatch, readJson } from './api-io.js';
import type { ApiCall } from './api-routes.js';
import { sendError, sendJson } from './respond.js';

const providerId = z.string().min(1).max(100);
const fingerprint = z.string().regex(/^[0-9a-f]{12}$/, 'a key fingerprint: 12 hex characters');
/** Shapes only: the config's schema judges the values, with the same words as everywhere else. */
const newProviderBody = z.strictObject({
  id: z.string().max(100),
  name: z.string().max(100).optional(),
  baseUrl: z.string().max(2000),
  apiKeys: z.array(z.string().max(4096)).max(50),
  models: z.array(z.string().max(300)).max(1000),
  headers: z.record(z.string().max(1000)).optional(),
});
const addKeyBody = z.strictObject({
  provider: providerId,
  apiKey: apiKeySchema.refine((key) => key.trim() !== '', 'an API key: paste one'),
});
const keyRef = z.strictObject({ provider: providerId, fingerprint });
const looseObject = z.record(z.unknown());
const settingsBody = z.strictObject({
  provider: providerId,
  probe: looseObject.nullable().optional(),
  limits: looseObject.nullable().optional(),
});

type ProviderEntry = NonNullable<ConfigInput['providers']>[string];

/** Removed keys, one store per router (its live config), on the router's clock. */
const heldByRouter = new WeakMap<LiveConfig, HeldKeys>();

function heldKeys({ deps }: ApiCall): HeldKeys {
  let held = heldByRouter.get(deps.live);
  if (held === undefined) {
    held = new HeldKeys(deps.time.now);
    heldByRouter.set(deps.live, held);
  }
  return held;
}

/** Reads the file again (a provider added there a moment ago counts) and answers 404 for an unknown provider. */
async function knownProvider({ deps, res }: ApiCall, id: string): Promise<boolean> {
  await deps.live.syncWithFile();
  if (deps.live.resolved.providers.has(id)) return true;
  sendError(res, 404, 'provider_not_found', `fcm-router: unknown provider "${id}"`);
  return false;
}

async function addProvider(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, newProviderBody);
  if (!read.ok) return;
  const body = read.value;
  await deps.live.syncWithFile();
  const existing = deps.live.resolved.providers.get(body.id);
  if (existing !== undefined) {
    const message = existing.custom
      ? `a provider named "${body.id}" exists: pick another id`
      : `"${body.id}" is a catalogue provider: add a key to it in its row instead`;
    sendError(res, 409, 'provider_exists', `fcm-router: ${message}`, { extra: { param: 'id' } });
    return;
  }
  const apiKeys = body.apiKeys.map((key) => key.trim()).filter((key) => key !== '');
  const added = { ...body, apiKeys };
  const refused = refusedHere(added, deps.live.raw);
  if (refused.length > 0) return answerUpdate(res, { ok: false, issues: refused }, deps.live);
  const result = await deps.live.update((raw) => withNewProvider(raw, added));
  answerEdit(res, result, deps.live);
}

/**
 * What the config's schema would not say of a new provider, with every other problem of it (none when
 * there is nothing such): a model id with a blank, which the schema takes but no set could name, and an id
 * or header name their checks refuse. The config's issues write a bad name as a placeholder (it may be a
 * pasted secret); this answer goes only to whoever typed it, and the form puts each issue on its field by
 * the id it sent, so here they are named.
 */
function refusedHere(added: NewProvider, raw: ConfigInput): ConfigIssue[] {
  const names = badNameIssues(added);
  const models = added.models.flatMap((model, index) =>
    isModelIdText(model)
      ? []
      : [{ path: `providers.${added.id}.models.${index}`, message: MODEL_ID_MESSAGE }],
  );
  if (names.length === 0 && models.length === 0) return [];
  const checked = validateConfig(withNewProvider(structuredClone(raw), added));
  // The schema's issues at a placeholder are the named ones above, or under a bad id.
  const others = checked.ok ? [] : checked.issues.filter((issue) => !hasUnshownName(issue.path));
  return [...names, ...others, ...models];
}

/** The new provider's id and header names their checks refuse, each at its path, named. */
function badNameIssues(added: NewProvider): ConfigIssue[] {
  const idProblem = providerIdProblem(added.id);
  const issues = idProblem === null ? [] : [{ path: `providers.${added.id}`, message: idProblem }];
  for (const name of Object.keys(added.headers ?? {})) {
    const problem = headerNameProblem(name);
    if (problem !== null)
      issues.push({ path: `providers.${added.id}.headers.${name}`, message: `header name ${problem}` });
  }
  return issues;
}

async function addKey(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, addKeyBody);
  if (!read.ok || !(await knownProvider(call, read.value.provider))) return;
  const { provider } = read.value;
  const apiKey = read.value.apiKey.trim();
  const added = keyFingerprint(apiKey);
  const keys = deps.live.resolved.providers.get(provider)?.keys ?? [];
  if (keys.some((key) => key.fingerprint === added)) {
    sendError(res, 409, 'key_exists', `fcm-router: this key is already one of ${provider}'s keys (${added})`);
    return;
  }
  const result = await deps.live.update((raw) => withAddedKey(raw, provider, apiKey));
  if (result.ok) sendJson(res, 200, { ok: true, fingerprint: added });
  else answerUpdate(res, result, deps.live);
}

async function removeKey(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, keyRef);
  if (!read.ok || !(await knownProvider(call, read.value.provider))) return;
  const { provider, fingerprint: removed } = read.value;
  // What the change took out, kept to put back on undo (a property: the callback runs before `update` ends).
  const found: { key?: HeldKey } = {};
  const result = await deps.live.update((raw) => {
    const without = withoutKey(raw, provider, removed);
    if (without === null) return raw;
    const entry = raw.providers?.[provider];
    found.key = { ...without.taken, baseUrl: entry?.baseUrl, headerDigests: headerDigests(entry?.headers) };
    return without.raw;
  });
  if (!result.ok) return answerUpdate(res, result, deps.live);
  if (found.key === undefined) {
    const message = `${provider} has no key ${removed} in the config (a key from the environment is removed there)`;
    sendError(res, 404, 'key_not_found', `fcm-router: ${message}`);
    return;
  }
  heldKeys(call).hold(provider, removed, found.key);
  sendJson(res, 200, { ok: true, undoForMs: HOLD_MS });
}

/**
 * A key is meant for one address: it never goes back to a provider that points elsewhere now, or that
 * sends headers added or changed since (as a save that did so would have dropped it).
 */
function movedSinceRemoval(held: HeldKey, now: ProviderEntry | undefined): boolean {
  return (
    now?.baseUrl !== held.baseUrl || headersAddedOrChanged(headerDigests(now?.headers), held.headerDigests)
  );
}

async function restoreKey(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, keyRef);
  if (!read.ok || !(await knownProvider(call, read.value.provider))) return;
  const { provider, fingerprint: wanted } = read.value;
  const held = heldKeys(call).take(provider, wanted);
  if (held === null) {
    const message = `the key ${wanted} is no longer held: a removal can be undone for ${HOLD_MS / 1000} s; paste the key again to add it`;
    sendError(res, 410, 'key_not_held', `fcm-router: ${message}`);
    return;
  }
  if (movedSinceRemoval(held, deps.live.raw.providers?.[provider])) {
    const message = `${provider} points to another address or sends other headers since the key was removed: paste the key again to add it`;
    sendError(res, 409, 'provider_moved', `fcm-router: ${message}`);
    return;
  }
  const result = await deps.live.update((raw) => withRestoredKey(raw, provider, held));
  if (result.ok) return sendJson(res, 200, { ok: true });
  heldKeys(call).hold(provider, wanted, held);
  answerUpdate(res, result, deps.live);
}

/**
 * A provider's probes and limits, each replaced whole. With `If-Match` (the revision of `GET /api/providers`
 * the form was filled from) a save based on settings the file has changed since is refused (409).
 */
async function providerSettings(call: ApiCall): Promise<void> {
  const { deps, req, res } = call;
  const read = await readJson(req, res, settingsBody);
  if (!read.ok) return;
  const basedOn = readIfMatch(req, res);
  if (!basedOn.ok || !(await knownProvider(call, read.value.provider))) return;
  const { provider, ...change } = read.value;
  // Shapes only here: the config's schema says what is wrong with a value, at its path.
  const edit = (raw: ConfigInput) => withProviderSettings(raw, provider, change);
  answerEdit(res, await deps.live.update(edit, basedOn.revision), deps.live);
}

/** The Providers view's routes, by `METHOD path`. */
export const PROVIDER_ROUTES: Readonly<Record<string, (call: ApiCall) => Promise<void>>> = {
  'POST /api/providers/add': addProvider,
  'POST /api/providers/keys/add': addKey,
  'POST /api/providers/keys/remove': removeKey,
  'POST /api/providers/keys/restore': restoreKey,
  'POST /api/providers/settings': providerSettings,
};
