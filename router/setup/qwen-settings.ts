/**
 * Qwen Code's `~/.qwen/settings.json`: our entry in `modelProviders.openai` (id `fcm`, its key read from
 * `env.FCM_ROUTER_KEY`), `model.name` and the `openai` auth type; every other key as it was. Pure.
 */
import { childObject, formatSettings, parseSettings, type JsonObject } from './json-settings.js';
import { MODEL, PLACEHOLDER_KEY, type RouterTarget } from './router-target.js';

/** The variable our provider entry reads its key from (Qwen Code keeps no key in the entry itself). */
export const QWEN_KEY_ENV = 'FCM_ROUTER_KEY';
/** The settings version Qwen Code 0.24 writes: a new file gets it, so Qwen Code need not migrate it. */
const SETTINGS_VERSION = 4;

function ourEntry(target: RouterTarget): JsonObject {
  return {
    id: MODEL,
    name: 'fcm-router',
    baseUrl: `${target.origin}/v1`,
    envKey: QWEN_KEY_ENV,
    ...(target.contextWindow === null
      ? {}
      : { generationConfig: { contextWindowSize: target.contextWindow } }),
  };
}

/** `modelProviders.openai` without our entry (entries that are not objects are kept as they are). */
function otherEntries(settings: JsonObject): unknown[] {
  const openai = childObject(settings, 'modelProviders').openai;
  const list = Array.isArray(openai) ? (openai as unknown[]) : [];
  return list.filter((entry) => !isOurEntry(entry));
}

function isOurEntry(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && (entry as JsonObject).id === MODEL;
}

/** `text` with Qwen Code pointed at the router, every other key as it was. */
export function applyQwen(text: string | null, file: string, target: RouterTarget): string {
  const settings = parseSettings(text, file);
  const openai = childObject(settings, 'modelProviders').openai;
  if (openai !== undefined && !Array.isArray(openai))
    throw new Error(`${file}: modelProviders.openai is not a list; nothing was changed`);
  const version = Object.keys(settings).length === 0 ? { $version: SETTINGS_VERSION } : {};
  const modelProviders = {
    ...childObject(settings, 'modelProviders'),
    openai: [...otherEntries(settings), ourEntry(target)],
  };
  const security = childObject(settings, 'security');
  const auth = { ...childObject(security, 'auth'), selectedType: 'openai' };
  return formatSettings(
    {
      ...version,
      ...settings,
      env: { ...childObject(settings, 'env'), [QWEN_KEY_ENV]: PLACEHOLDER_KEY },
      modelProviders,
      security: { ...security, auth },
      model: { ...childObject(settings, 'model'), name: MODEL },
    },
    text,
  );
}

/**
 * `parent` with the object at `key` changed by `edit` (dropped when that leaves it empty); key order kept.
 * A value that is not an object is left as it is: it is not ours.
 */
function editChild(parent: JsonObject, key: string, edit: (child: JsonObject) => void): JsonObject {
  const value = parent[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return parent;
  const child = { ...(value as JsonObject) };
  edit(child);
  const out: JsonObject = {};
  for (const [name, kept] of Object.entries(parent)) {
    if (name !== key) out[name] = kept;
    else if (Object.keys(child).length > 0) out[name] = child;
  }
  return out;
}

/**
 * Qwen Code's settings without our entry, our key variable and `model.name` when it names `fcm`. The auth
 * type stays `openai` (it may have been before). `anyModel` also drops `model.name`, the auth type and
 * `$version` whatever they say (Qwen Code writes `$version` itself), to compare two versions apart from
 * what setup sets.
 */
export function stripQwen(text: string, file: string, anyModel = false): JsonObject {
  let settings = parseSettings(text, file);
  settings = editChild(settings, 'modelProviders', (providers) => {
    if (!Array.isArray(providers.openai)) return;
    const others = (providers.openai as unknown[]).filter((entry) => !isOurEntry(entry));
    if (others.length > 0) providers.openai = others;
    else delete providers.openai;
  });
  settings = editChild(settings, 'env', (env) => delete env[QWEN_KEY_ENV]);
  settings = editChild(settings, 'model', (model) => {
    if (anyModel || model.name === MODEL) delete model.name;
  });
  if (anyModel) {
    settings = editChild(settings, 'security', (security) => {
      const edited = editChild(security, 'auth', (auth) => delete auth.selectedType);
      for (const key of Object.keys(security)) delete security[key];
      Object.assign(security, edited);
    });
    delete settings.$version;
  }
  return settings;
}
