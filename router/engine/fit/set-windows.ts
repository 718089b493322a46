/**
 * The context window an agent should plan for, per model name `GET /v1/models` advertises: for a set, the
 * smallest window among its routable models (a conversation that stays under it fits every one of them, so
 * it can stay on its model); for a pinned model, its own. Windows are what the router knows (config, the
 * provider's list, the catalogue) lowered by what context-length refusals taught. Null when no window is
 * known. Pure.
 */
import type { ResolvedConfig, ResolvedModel } from '../../config/resolve-config.js';
import type { LearnedFit } from '../../state/fit-book.js';

/** A model's window as far as the router knows, or null. */
export function modelWindow(model: ResolvedModel, learned: LearnedFit | undefined): number | null {
  const known = model.fit.contextWindow;
  const ceiling = learned?.ceiling;
  const taught = ceiling !== undefined && ceiling.kind === 'context' ? ceiling.tokens : null;
  if (known === null) return taught;
  return taught === null ? known : Math.min(known, taught);
}

/** Whether a model can be routed to at all, by the config alone (its provider on, reachable, keyed). */
function routable(resolved: ResolvedConfig, model: ResolvedModel): boolean {
  const provider = resolved.providers.get(model.provider);
  if (provider === undefined || model.vanished === true) return false;
  return provider.enabled && provider.baseUrl !== null && (!provider.keyRequired || provider.apiKey !== null);
}

/** The smallest known window among the set's routable models, or null when none is known. */
export function setWindow(
  resolved: ResolvedConfig,
  set: readonly string[],
  learned: (key: string) => LearnedFit | undefined,
): number | null {
  let smallest: number | null = null;
  for (const key of set) {
    const model = resolved.models.get(key);
    if (model === undefined || !routable(resolved, model)) continue;
    const window = modelWindow(model, learned(key));
    if (window !== null && (smallest === null || window < smallest)) smallest = window;
  }
  return smallest;
}

/** The window of an advertised model name (`fcm`, `fcm:<set>`, `fcm:@provider/model`), or null. */
export function advertisedWindow(
  resolved: ResolvedConfig,
  name: string,
  learned: (key: string) => LearnedFit | undefined,
): number | null {
  if (name === 'fcm') return setWindow(resolved, resolved.sets[resolved.activeSet] ?? [], learned);
  if (name.startsWith('fcm:@')) {
    const model = resolved.models.get(name.slice(5));
    return model === undefined ? null : modelWindow(model, learned(model.key));
  }
  const set = resolved.sets[name.slice(4)];
  return set === undefined ? null : setWindow(resolved, set, learned);
}
