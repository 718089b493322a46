/**
 * The body one attempt sends: the agent's (shared by every attempt), or a variant made once per request
 * for the models that need one.
 */
import type { ResolvedModel } from '../../config/resolve-config.js';
import { fitMaxTokens } from '../../faces/max-tokens.js';
import { totalTokens } from '../../faces/request-size.js';
import { BodyTemplate } from '../../upstream/body-template.js';
import type { RequestRun } from '../routing/dispatch.js';
import { takeFit } from './fit-steps.js';

/** The body an attempt sends, what the router changed in it (for the trace) and its size in tokens. */
export interface SentBody {
  body: BodyTemplate;
  note: string | null;
  size: number;
}

/**
 * The body for `model`: the agent's, with its output length clamped to what the model gives or its window
 * leaves (noted in the trace), and the agent's reasoning effort for a model that takes `reasoning_effort`.
 */
export function bodyFor(run: RequestRun, model: ResolvedModel): SentBody {
  const { needs, body, effort } = run.req;
  const fit = takeFit(run, model.key);
  const output = fit.fits ? fit.output : null;
  const clamped =
    output === null
      ? { body, note: null }
      : fitMaxTokens(body, output, "what the model's window and output limit leave");
  const withEffort = effort != null && model.fit.reasoningEffort && body.reasoning_effort === undefined;
  const size = fit.fits && clamped.note !== null ? fit.size : totalTokens(needs);
  if (clamped.note === null && !withEffort) return { body: run.body, note: null, size };
  const id = `${clamped.note === null ? '' : String(output)}|${withEffort ? effort : ''}`;
  run.variants ??= new Map();
  let template = run.variants.get(id);
  if (template === undefined) {
    template = new BodyTemplate(withEffort ? { ...clamped.body, reasoning_effort: effort } : clamped.body);
    run.variants.set(id, template);
  }
  return { body: template, note: clamped.note, size };
}
