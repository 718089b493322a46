/**
 * Qwen Code's `~/.qwen/settings.json`: our entry in `modelProviders.openai` (id `fcm`, its key read from
 * `env.FCM_ROUTER_KEY`), `model.name` and the `openai` auth type; every other key as it was. Pure.
 */
import {
  childObject,
  editChild,
  formatSettings,
  parseSettings,
  valueBack,
  type JsonObject,
  type PutBack,
} from './json-settings.js';
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

/** `settings` without our entry in `modelProviders.openai` (dropped when that leaves it empty). */
function withoutOurEntry(settings: JsonObject): JsonObject {
  return editChild(settings, 'modelProviders', (providers) => {
    if (!Array.isArray(providers.openai)) return;
    const others = (providers.openai as unknown[]).filter((entry) => !isOurEntry(entry));
    if (others.length > 0) providers.openai = others;
    else delete providers.openai;
  });
}

/**
 * Qwen Code's settings without our entry, our key variable and `model.name` when it names `fcm`. The auth
 * type stays `openai` (it may have been before). `anyModel` also drops `model.name`, the auth type and
 * `$version` whatever they say (Qwen Code writes `$version` itself), to compare two versions apart from
 * what setup sets.
 */
export function stripQwen(text: string, file: string, anyModel = false): JsonObject {
  let settings = withoutOurEntry(parseSettings(text, file));
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

/**
 * Qwen Code's settings without our provider entry; our key variable, `model.name` while it names `fcm` and
 * the auth type while it is `openai` given back the values `saved` (the backup from before setup) has for
 * them, in place, and removed where it has none.
 */
export function putBackQwen(settings: JsonObject, saved: JsonObject): PutBack {
  const broughtBack: string[] = [];
  const back = (into: JsonObject, from: JsonObject, key: string, name: string): void => {
    if (valueBack(into, from, key)) broughtBack.push(name);
  };
  let out = withoutOurEntry(settings);
  out = editChild(out, 'env', (env) => {
    if (QWEN_KEY_ENV in env) back(env, childObject(saved, 'env'), QWEN_KEY_ENV, `env.${QWEN_KEY_ENV}`);
  });
  out = editChild(out, 'model', (model) => {
    if (model.name === MODEL) back(model, childObject(saved, 'model'), 'name', 'model.name');
  });
  const savedAuth = childObject(childObject(saved, 'security'), 'auth');
  out = editChild(out, 'security', (security) => {
    const edited = editChild(security, 'auth', (auth) => {
      if (auth.selectedType === 'openai') back(auth, savedAuth, 'selectedType', 'security.auth.selectedType');
    });
    for (const key of Object.keys(security)) delete security[key];
    Object.assign(security, edited);
  });
  return { settings: out, broughtBack };
}
