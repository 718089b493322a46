import { lookupModel, type ResolvedConfig, type ResolvedModel } from '../../config/resolve-config.js';
import { clientError } from '../answer/final-answer.js';
import type { ErrorAnswer } from '../../faces/answer-encoder.js';
import { parseModelName } from './model-names.js';

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
  if (model === null)
    return refused(
      `fcm-router: unknown provider in "${target.model}" (expected provider/modelId)`,
      target.model,
    );
  return { type: 'pinned', model };
}

function refused(message: string, pinned: string | null): RouteTarget {
  return { type: 'refused', error: clientError(404, 'model_not_found', message), pinned };
}
