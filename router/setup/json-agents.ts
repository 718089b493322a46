/**
 * Claude Code's `settings.json` env and OpenCode's `opencode.json` provider: our keys only, set, removed,
 * or given back the values the backup from before setup had. Pure.
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

/** The `env` entries Claude Code gets; `CLAUDE_CODE_AUTO_COMPACT_WINDOW` only with a known window. */
export const CLAUDE_ENV_KEYS = [
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_MODEL',
  'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC',
  'CLAUDE_CODE_AUTO_COMPACT_WINDOW',
] as const;

function claudeEnv(target: RouterTarget): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: target.origin,
    // The token rather than ANTHROPIC_API_KEY: Claude Code asks before using an API key from settings.
    ANTHROPIC_AUTH_TOKEN: PLACEHOLDER_KEY,
    ANTHROPIC_MODEL: MODEL,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...(target.contextWindow === null
      ? {}
      : { CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(target.contextWindow) }),
  };
}

/**
 * `text` with Claude Code's `env` pointing at the router, every other key as it was. Our entries keep their
 * places (a file set up already, with the user's own entries added since, is left as it is); new ones go last.
 */
export function applyClaude(text: string | null, file: string, target: RouterTarget): string {
  const settings = parseSettings(text, file);
  const env = childObject(settings, 'env');
  const ours = claudeEnv(target);
  const kept = Object.fromEntries(
    Object.entries(env).filter(([key]) => !isClaudeKey(key) || Object.hasOwn(ours, key)),
  );
  return formatSettings({ ...settings, env: { ...kept, ...ours } }, text);
}

function isClaudeKey(key: string): boolean {
  return (CLAUDE_ENV_KEYS as readonly string[]).includes(key);
}

/** Whether `value` is a model name of this router: `fcm`, or `fcm:<set>` and `fcm:@provider/model`. */
function isRouterModel(value: unknown): boolean {
  return typeof value === 'string' && (value === MODEL || value.startsWith(`${MODEL}:`));
}

/**
 * The `env` keys of Claude Code's whose values are setup's, by value, never by name alone: a model of this
 * router's, and the token setup writes; beside that token, the base URL, the window and the traffic switch
 * setup writes with it. A gateway of the user's own, with its token, is none of these. Pure.
 */
export function ourClaudeKeys(env: JsonObject): Set<string> {
  const ours = new Set<string>();
  if (isRouterModel(env.ANTHROPIC_MODEL)) ours.add('ANTHROPIC_MODEL');
  if (env.ANTHROPIC_AUTH_TOKEN !== PLACEHOLDER_KEY) return ours;
  ours.add('ANTHROPIC_AUTH_TOKEN');
  for (const key of ['ANTHROPIC_BASE_URL', 'CLAUDE_CODE_AUTO_COMPACT_WINDOW']) if (key in env) ours.add(key);
  if (env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC === '1')
    ours.add('CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC');
  return ours;
}

/**
 * Claude Code's settings without our `env` entries (see {@link ourClaudeKeys}), and without `env` when
 * nothing else is left. `anyModel` drops every key setup sets whatever it holds, to compare two versions
 * apart from what setup sets.
 */
export function stripClaude(text: string, file: string, anyModel = false): JsonObject {
  const settings = parseSettings(text, file);
  if (!('env' in settings)) return settings;
  const all = childObject(settings, 'env');
  const ours = anyModel ? new Set(Object.keys(all).filter(isClaudeKey)) : ourClaudeKeys(all);
  const env = Object.fromEntries(Object.entries(all).filter(([key]) => !ours.has(key)));
  const { env: _ours, ...rest } = settings;
  return Object.keys(env).length === 0 ? rest : { ...rest, env };
}

/**
 * Claude Code's settings with our `env` entries (see {@link ourClaudeKeys}) given back the values `saved`
 * (the backup from before setup) has for them, in place, and removed where it has none (and `env` removed
 * when nothing is left). A value the user wrote over setup's since is theirs and stays.
 */
export function putBackClaude(settings: JsonObject, saved: JsonObject): PutBack {
  const before = childObject(saved, 'env');
  const broughtBack: string[] = [];
  const out = editChild(settings, 'env', (env) => {
    const ours = ourClaudeKeys(env);
    for (const key of Object.keys(env).filter((name) => ours.has(name)))
      if (valueBack(env, before, key)) broughtBack.push(`env.${key}`);
  });
  return { settings: out, broughtBack };
}

/** The most output OpenCode asks for when told no less (its `OUTPUT_TOKEN_MAX`). */
const OPENCODE_OUTPUT_MAX = 32_000;

/**
 * OpenCode's `limit` for a set whose smallest window is `window`: it compacts once a turn's tokens reach the
 * window less `output`, and asks for `output` as `max_tokens`, so input and answer fit every model of the set.
 * A quarter of the window for the answer (at most what OpenCode asks anyway): without a `limit` it never
 * compacts, and OpenCode refuses a `context` without an `output`.
 */
export function opencodeLimit(window: number): { context: number; output: number } {
  return { context: window, output: Math.min(OPENCODE_OUTPUT_MAX, Math.floor(window / 4)) };
}

/** The `provider.fcm` entry OpenCode gets; its model's `limit` only with a known window. */
function opencodeProvider(target: RouterTarget): JsonObject {
  const { contextWindow } = target;
  const limit = contextWindow === null ? {} : { limit: opencodeLimit(contextWindow) };
  return {
    npm: '@ai-sdk/openai-compatible',
    name: 'fcm-router',
    options: { baseURL: `${target.origin}/v1`, apiKey: PLACEHOLDER_KEY },
    models: { [MODEL]: { name: `${MODEL} (fcm-router)`, ...limit } },
  };
}

/** `text` with OpenCode's `fcm` provider and `model`, every other key as it was. */
export function applyOpencode(text: string | null, file: string, target: RouterTarget): string {
  const settings = parseSettings(text, file);
  const provider = { ...childObject(settings, 'provider'), fcm: opencodeProvider(target) };
  // A new file gets the schema line OpenCode's own examples start with; an existing one is left as it is.
  const schema = Object.keys(settings).length === 0 ? { $schema: 'https://opencode.ai/config.json' } : {};
  return formatSettings({ ...schema, ...settings, provider, model: `fcm/${MODEL}` }, text);
}

/**
 * OpenCode's settings without our provider, and without `model` when it names it (or whatever it names,
 * with `anyModel`, to compare two versions apart from what setup sets); key order kept.
 */
export function stripOpencode(text: string, file: string, anyModel = false): JsonObject {
  const settings = parseSettings(text, file);
  const providers = childObject(settings, 'provider');
  delete providers.fcm;
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key === 'provider') {
      if (Object.keys(providers).length > 0) kept.provider = providers;
    } else if (!(key === 'model' && (anyModel || (typeof value === 'string' && value.startsWith('fcm/'))))) {
      kept[key] = value;
    }
  }
  return kept;
}

/**
 * OpenCode's settings with `provider.fcm`, and `model` while it names it, given back the values `saved` (the
 * backup from before setup) has for them, in place, and removed where it has none.
 */
export function putBackOpencode(settings: JsonObject, saved: JsonObject): PutBack {
  const broughtBack: string[] = [];
  const before = childObject(saved, 'provider');
  const out = {
    ...editChild(settings, 'provider', (providers) => {
      if ('fcm' in providers && valueBack(providers, before, 'fcm')) broughtBack.push('provider.fcm');
    }),
  };
  const model = out.model;
  if (typeof model === 'string' && model.startsWith('fcm/') && valueBack(out, saved, 'model'))
    broughtBack.push('model');
  return { settings: out, broughtBack };
}
