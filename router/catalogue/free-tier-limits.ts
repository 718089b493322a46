/**
 * The free-tier limits providers publish: requests per minute and per day, tokens per minute and per day.
 * They apply per key and model, or per key alone for providers whose `quotaScope` is `key` (OpenRouter,
 * NVIDIA). The router counts against them and skips a model at its limit before the provider's 429; the
 * config overrides any of them (`providers.<id>.limits`, `providers.<id>.modelLimits`), and a provider's
 * `x-ratelimit-*` headers correct the counts. Providers change these often: they are a starting point.
 */

/** One budget: null means no limit of that kind. */
export interface BudgetLimits {
  rpm: number | null;
  rpd: number | null;
  tpm: number | null;
  tpd: number | null;
}

/** Some limits, the rest left as they are. */
export type PartialLimits = Partial<Record<keyof BudgetLimits, number | null>>;

interface ProviderLimits {
  /** Every model of the provider. */
  all: PartialLimits;
  /** Per model id, over `all`. */
  models?: Record<string, PartialLimits>;
}

export const NO_LIMITS: BudgetLimits = Object.freeze({ rpm: null, rpd: null, tpm: null, tpd: null });

/** Published free tiers (per key and model unless the provider's quota scope is the key). */
export const FREE_TIER_LIMITS: Readonly<Record<string, ProviderLimits>> = {
  groq: {
    all: { rpm: 30, rpd: 1000, tpm: 6000, tpd: 100_000 },
    models: {
      'llama-3.1-8b-instant': { rpd: 14_400, tpd: 500_000 },
      'llama-3.3-70b-versatile': { tpm: 12_000 },
      'openai/gpt-oss-120b': { tpm: 8000, tpd: 200_000 },
      'openai/gpt-oss-20b': { tpm: 8000, tpd: 200_000 },
    },
  },
  cerebras: { all: { rpm: 30, rpd: 14_400, tpm: 60_000, tpd: 1_000_000 } },
  googleai: {
    all: { rpm: 10, rpd: 250, tpm: 250_000 },
    models: {
      'gemini-2.5-pro': { rpm: 5, rpd: 100 },
      'gemini-2.5-flash-lite': { rpm: 15, rpd: 1000 },
    },
  },
  openrouter: { all: { rpm: 20, rpd: 50 } },
  nvidia: { all: { rpm: 40 } },
  codestral: { all: { rpm: 30, rpd: 2000 } },
};

/**
 * The limits of one model: the catalogue's for the provider, then for the model, then the config's for the
 * provider, then for the model. A null in the config removes a limit.
 */
export function modelLimits(
  providerId: string,
  modelId: string,
  own: { limits?: PartialLimits; modelLimits?: Record<string, PartialLimits> } | undefined,
): BudgetLimits {
  const published = FREE_TIER_LIMITS[providerId];
  const layers = [published?.all, published?.models?.[modelId], own?.limits, own?.modelLimits?.[modelId]];
  const limits: BudgetLimits = { ...NO_LIMITS };
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const name of ['rpm', 'rpd', 'tpm', 'tpd'] as const) {
      const value = layer[name];
      if (value !== undefined) limits[name] = value;
    }
  }
  return limits;
}

/** True when the model has any limit. */
export function hasLimits(limits: BudgetLimits): boolean {
  return limits.rpm !== null || limits.rpd !== null || limits.tpm !== null || limits.tpd !== null;
}
