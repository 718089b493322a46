/**
 * What a model can take, as far as the router knows before it asks: its context window in tokens, its
 * longest output, and whether it takes tools and images (null: not known, assumed yes). Three sources, the
 * first that says wins: the config's `providers.<id>.modelFit`, the provider's own model list
 * (`context_length` / `context_window`, as OpenRouter's and Groq's lists give), the catalogue's context
 * column. What refusals teach comes on top, per request (`state/fit-book.ts`).
 */

export interface ModelFit {
  /** Tokens of input and output together, or null when unknown. */
  contextWindow: number | null;
  /** Where the window comes from. */
  windowSource: 'config' | 'provider' | 'catalogue' | null;
  /** The longest output the model gives, or null when unknown. */
  maxOutputTokens: number | null;
  /** False when the model is known not to take tools. */
  tools: boolean | null;
  /** False when the model is known not to take images. */
  images: boolean | null;
  /** True when the model takes `reasoning_effort` (the config says so; nothing else knows). */
  reasoningEffort: boolean;
}

export const UNKNOWN_FIT: ModelFit = Object.freeze({
  contextWindow: null,
  windowSource: null,
  maxOutputTokens: null,
  tools: null,
  images: null,
  reasoningEffort: false,
});

/** A model's facts in the config (every field optional). */
export interface ModelFitSettings {
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  tools?: boolean | undefined;
  images?: boolean | undefined;
  reasoningEffort?: boolean | undefined;
}

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1000, m: 1_000_000 };

/**
 * The catalogue's context column (`128k`, `1.3M`, `32768`) as a token count, or null when it says none.
 * A `k` is taken as 1000 (the catalogue's `131k` is 131,072: rounding down errs on the safe side).
 *
 * @example contextTokens('65k') // 65000
 */
export function contextTokens(context: string | null): number | null {
  if (context === null) return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*$/.exec(context);
  if (!match) return null;
  const tokens = Math.floor(Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? 1));
  return tokens > 0 ? tokens : null;
}

/** One model's fit from its three sources (each may be absent). Pure. */
export function modelFit(
  settings: ModelFitSettings | undefined,
  listedWindow: number | undefined,
  catalogueContext: string | null,
): ModelFit {
  const catalogue = contextTokens(catalogueContext);
  const [contextWindow, windowSource] =
    settings?.contextWindow !== undefined
      ? [settings.contextWindow, 'config' as const]
      : listedWindow !== undefined
        ? [listedWindow, 'provider' as const]
        : catalogue !== null
          ? [catalogue, 'catalogue' as const]
          : [null, null];
  return {
    contextWindow,
    windowSource,
    maxOutputTokens: settings?.maxOutputTokens ?? null,
    tools: settings?.tools ?? null,
    images: settings?.images ?? null,
    reasoningEffort: settings?.reasoningEffort ?? false,
  };
}
