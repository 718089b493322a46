/**
 * What the `model` an agent sends means: the target its request routes to (a set's chain, one pinned model,
 * or a refusal), and the names `GET /v1/models` advertises.
 */
import { lookupModel, type ResolvedConfig, type ResolvedModel } from '../../config/resolve-config.js';
import { clientError } from '../answer/final-answer.js';
import type { ErrorAnswer } from '../../faces/answer-encoder.js';

/**
 * What the `model` an agent sends means: `fcm` → the active set; `fcm:<set>` → that set (`fcm:default`
 * falls back to the active set only when no set is named "default"); `fcm:@provider/model` or
 * `fcm:provider/model` → one pinned model; anything else → the active set (the name is kept in the trace).
 */
export type ModelTarget =
  { type: 'set'; set: string } | { type: 'pinned'; model: string } | { type: 'unknown_set'; set: string };

/** Resolves an agent's model name against the configured sets. Pure. */
export function parseModelName(
  name: string,
  sets: Readonly<Record<string, readonly string[]>>,
  activeSet: string,
): ModelTarget {
  if (!name.startsWith('fcm:')) return { type: 'set', set: activeSet };
  const rest = name.slice(4);
  if (rest.startsWith('@')) return { type: 'pinned', model: rest.slice(1) };
  if (rest.includes('/')) return { type: 'pinned', model: rest };
  if (Object.hasOwn(sets, rest)) return { type: 'set', set: rest };
  if (rest === 'default' || rest === '') return { type: 'set', set: activeSet };
  return { type: 'unknown_set', set: rest };
}

/** What a request routes to: a set's chain, one pinned model, or a refusal (the name points nowhere). */
export type RouteTarget =
  | { type: 'set'; name: string; set: readonly string[] }
  | { type: 'pinned'; model: ResolvedModel }
  | { type: 'refused'; error: ErrorAnswer; pinned: string | null };

/** Resolves the agent's model name against the config: the first step of every request. Pure. */
export function resolveTarget(resolved: ResolvedConfig, modelRequested: string): RouteTarget {
  const target = parseModelName(modelRequested, resolved.sets, resolved.activeSet);
  if (target.type === 'unknown_set') {
    const sets = Object.keys(resolved.sets).join(', ') || 'none';
    return refused(`fcm-router: no set named "${target.set}" (sets: ${sets})`, null);
  }
  if (target.type === 'set') return { type: 'set', name: target.set, set: resolved.sets[target.set] ?? [] };
  const model = lookupModel(resolved, target.model);
  if (model === null) return refused(`fcm-router: ${whyNoModel(resolved, target.model)}`, target.model);
  return { type: 'pinned', model };
}

/** Why a pinned name resolves to no model: its shape, or a provider the router does not know. */
function whyNoModel(resolved: ResolvedConfig, name: string): string {
  const slash = name.indexOf('/');
  const provider = slash > 0 ? name.slice(0, slash) : '';
  if (provider !== '' && slash < name.length - 1 && !resolved.providers.has(provider))
    return `unknown provider "${provider}" in "${name}" (providers: ${someOf([...resolved.providers.keys()])})`;
  return `"${name}" is not provider/modelId (e.g. fcm:@groq/llama-3.3-70b-versatile)`;
}

/** How many names a refusal lists before it says how many more there are. */
const LISTED = 12;

/** `a, b, c` sorted, or the first {@link LISTED} and how many more. */
function someOf(names: string[]): string {
  const sorted = names.sort();
  const more = sorted.length - LISTED;
  return more > 0 ? `${sorted.slice(0, LISTED).join(', ')} and ${more} more` : sorted.join(', ') || 'none';
}

function refused(message: string, pinned: string | null): RouteTarget {
  return { type: 'refused', error: clientError(404, 'model_not_found', message), pinned };
}

/** The names `GET /v1/models` advertises. */
export function advertisedModelNames(
  sets: Readonly<Record<string, readonly string[]>>,
  pinnable: Iterable<string>,
): string[] {
  const names = ['fcm', ...Object.keys(sets).map((set) => `fcm:${set}`)];
  for (const key of pinnable) names.push(`fcm:@${key}`);
  return names;
}

/**
 * Models worth offering as `fcm:@provider/model` in an agent's model picker: every model of a set, and
 * every model of an enabled provider that has a key (or needs none). Keyless catalogue entries would only
 * fill the picker with models that cannot answer.
 */
export function pinnableModels(resolved: ResolvedConfig): string[] {
  const keys = new Set<string>();
  for (const set of Object.values(resolved.sets)) for (const key of set) keys.add(key);
  for (const model of resolved.models.values()) {
    const provider = resolved.providers.get(model.provider);
    if (provider?.enabled && provider.baseUrl !== null && (provider.apiKey || !provider.keyRequired))
      keys.add(model.key);
  }
  return [...keys];
}
