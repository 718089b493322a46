/**
 * Whether a model can take a request, before it is sent: its features (tools, images), its context window
 * and a key's whole tokens-per-minute limit, from what the router knows (config, the provider's list, the
 * catalogue) and what refusals taught. A request whose input fits but whose asked-for output would not is
 * sent with the output clamped to what is left; the model's own output limit clamps it too. Pure.
 */
import type { ModelFit } from '../../catalogue/model-fit.js';
import type { RequestNeeds } from '../../faces/request-size.js';
import type { FitSkipReason } from '../../gate/failure-kinds.js';
import type { LearnedFit } from '../../state/fit-book.js';

/**
 * Output a request must keep for a window to count as taking it: clamping an agent's 32,000 to a few
 * hundred tokens would cut its answers short, which is worse than the next model.
 */
export const MIN_OUTPUT_ROOM = 4096;

/**
 * An output clamped to a window leaves room for the estimate's error on the input (it is within 25 % of a
 * real tokenizer): a clamp to the exact edge would be refused whenever the estimate ran low.
 */
export const CLAMP_INPUT_MARGIN = 1.25;

export type FitVerdict =
  /** It fits; `output` is the output length to send when it must be lower than asked (else null). */
  | { fits: true; output: number | null; size: number }
  /** It does not; `limit` is the window or TPM limit it is over (null for a feature). */
  | { fits: false; reason: FitSkipReason; limit: number | null };

/** What fitting a request to one model reads: its facts, its TPM limit, what was learnt. */
export interface FitInput {
  fit: ModelFit;
  /** The key's tokens-per-minute limit, or null. */
  tpm: number | null;
  learned: LearnedFit | undefined;
}

/**
 * The output to send under `limit`: what is left after the input and the estimate's margin, but never less
 * than what the request must keep (when even that fits without the margin).
 */
function clamped(limit: number, input: number, output: number): number {
  return Math.max(
    limit - Math.ceil(input * CLAMP_INPUT_MARGIN),
    Math.min(leastOutput(output), limit - input),
  );
}

/** The output a window must leave for the request to go: what was asked, up to {@link MIN_OUTPUT_ROOM}. */
function leastOutput(output: number | null): number {
  return output === null ? 0 : Math.min(output, MIN_OUTPUT_ROOM);
}

const NO_TOOLS: FitVerdict = { fits: false, reason: 'no_tool_support', limit: null };
const NO_IMAGES: FitVerdict = { fits: false, reason: 'no_image_support', limit: null };

/**
 * Fits `needs` to one model. The size compared is input plus the output that would be sent.
 *
 * @example fitVerdict({ input: 20000, output: 32000, tools: false, images: false },
 *   { fit: { contextWindow: 65000, … }, tpm: null, learned: undefined })
 *   // { fits: true, output: 45000, size: 65000 }… clamped to what the window leaves
 */
export function fitVerdict(needs: RequestNeeds, model: FitInput): FitVerdict {
  const { fit, tpm, learned } = model;
  if (needs.tools && (fit.tools === false || learned?.noToolsAt !== undefined)) return NO_TOOLS;
  if (needs.images && (fit.images === false || learned?.noImagesAt !== undefined)) return NO_IMAGES;
  const { input } = needs;
  let output = needs.output;
  if (output !== null && fit.maxOutputTokens !== null) output = Math.min(output, fit.maxOutputTokens);
  // Asked of every model of a set on every request: two plain checks, nothing allocated on the way.
  const window = fit.contextWindow;
  if (window !== null) {
    if (input + leastOutput(output) > window) return { fits: false, reason: 'context_window', limit: window };
    if (output !== null && input + output > window) output = clamped(window, input, output);
  }
  if (tpm !== null) {
    if (input + leastOutput(output) > tpm) return { fits: false, reason: 'over_tpm', limit: tpm };
    if (output !== null && input + output > tpm) output = clamped(tpm, input, output);
  }
  const ceiling = learned?.ceiling;
  if (ceiling !== undefined) {
    const reason = ceiling.kind === 'tpm' ? 'over_tpm' : 'context_window';
    const limit = ceiling.tokens;
    // A limit the model stated (or a size it served) is a window like any: the output may be clamped to it.
    // A size refused without words is refused as a whole: a request at it or over is not sent again.
    const clampable = ceiling.stated === true || ceiling.source === 'served';
    if (input + (clampable ? leastOutput(output) : (output ?? 0)) > limit)
      return { fits: false, reason, limit };
    if (output !== null && input + output > limit) output = clamped(limit, input, output);
  }
  return { fits: true, output: output === needs.output ? null : output, size: input + (output ?? 0) };
}
