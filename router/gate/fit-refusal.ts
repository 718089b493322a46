/**
 * An upstream's refusal of a request it cannot take, read from its status and words: too long for its
 * context window, over a key's whole tokens-per-minute limit, or using tools or images the model does not
 * take. Such a refusal blames the request (no health damage); the engine learns the model's ceiling from it.
 * Pure, table-tested.
 */
import type { FitFailureKind } from './failure-kinds.js';

/** What a refusal says about fit. */
export interface FitRefusal {
  kind: FitFailureKind;
  /** The limit the refusal states in tokens, or null. */
  statedLimit: number | null;
}

const TPM = /tokens per minute|\bTPM\b/i;
// Gemini: "The input token count (N) exceeds the maximum number of tokens allowed (M)"; Z.ai: "Prompt
// exceeds max length"; GitHub Models: 413 "Request body too large for gpt-4o model. Max size: 8000 tokens."
const CONTEXT =
  /context[ _-]?length|context[ _-]?window|prompt is too long|too many (input )?tokens|input is too long|longer than the model|maximum context|request too large|reduce the length|exceeds the maximum number of tokens|prompt exceeds max(imum)? length|tokens_limit_reached|body too large for .{1,80} model/i;
// OpenRouter answers a model with no endpoint that takes tools or images with a 404 in these words.
const NO_ENDPOINT = /no endpoints found that support (tool use|image input)/i;
const TOOLS =
  /tools? (use |calling )?(is |are )?not supported|does ?n[o']t support tools|not support (function|tool) call|tool[ _]?(use|calls?|choice) (is )?not (supported|available)|no endpoints found that support tool use/i;
const IMAGES =
  /does ?n[o']t support (images?|vision|image input)|images? (input )?(is |are )?not supported|vision is not supported|image_url is not supported|not a multimodal model|no endpoints found that support image input/i;

/** Stated limits in the words upstreams use: `Limit 6000`, `maximum context length is 8192 tokens`. */
const LIMIT_PATTERNS = [
  /\bLimit:?\s*(\d{3,9})\b/,
  /maximum context length (?:is|of) (\d{3,9})/i,
  /context (?:length|window) (?:is|of) (\d{3,9})/i,
  /(\d{3,9}) maximum\b/i,
  /> ?(\d{3,9}) (?:tokens )?maximum/i,
  /maximum number of tokens allowed \((\d{3,9})\)/i,
  /Max size: (\d{3,9}) tokens/i,
];

function statedLimit(text: string): number | null {
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return null;
}

/**
 * What a refusal with `status` and the start of its body says about fit, or null when it says nothing of it.
 * Only 400, 413, 422, a 429 that says the request is too large (OpenAI's wording) and a 404 that says no
 * endpoint takes tools or images (OpenRouter's) are read.
 */
export function fitRefusal(status: number, body: string): FitRefusal | null {
  if (status === 404 && !NO_ENDPOINT.test(body)) return null;
  const sizeStatus = status === 400 || status === 413 || status === 422 || status === 404;
  if (!sizeStatus && !(status === 429 && /request too large/i.test(body))) return null;
  if (TPM.test(body) && (status === 413 || status === 429 || /too large|exceed/i.test(body)))
    return { kind: 'over_tpm', statedLimit: statedLimit(body) };
  // A 413 without these words may be a proxy's body limit: it stays a plain invalid request.
  if (CONTEXT.test(body)) return { kind: 'context_length', statedLimit: statedLimit(body) };
  if (TOOLS.test(body)) return { kind: 'no_tool_support', statedLimit: null };
  if (IMAGES.test(body)) return { kind: 'no_image_support', statedLimit: null };
  return null;
}
