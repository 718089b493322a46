/**
 * The free-tier limits providers publish: requests per minute and per day, tokens per minute and per day.
 * They apply per key and model, or per key alone for providers whose `quotaScope` is `key` (OpenRouter,
 * Mistral, Codestral). The router counts against them and skips a model at its limit before the provider's
 * 429; the config overrides any of them (`providers.<id>.limits`, `providers.<id>.modelLimits`), and a
 * provider's `x-ratelimit-*` headers correct the counts. Providers change these often: they are a starting point, each
 * with its source below (and in docs/configuration.md).
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
  /**
   * Where the provider's day starts, for its daily limits: an IANA time zone (its midnight). UTC when absent;
   * `providers.<id>.dayTimeZone` in the config overrides it.
   */
  dayTimeZone?: string;
  /** Every model of the provider. */
  all: PartialLimits;
  /** Per model id, over `all`. */
  models?: Record<string, PartialLimits>;
}

export const NO_LIMITS: BudgetLimits = Object.freeze({ rpm: null, rpd: null, tpm: null, tpd: null });

/**
 * Published free tiers (per key and model unless the provider's quota scope is the key). Each provider says
 * where its numbers come from and what that page said; where no provider page gives a number, the comment
 * says so and why the number is kept anyway. Limits a provider sets by the hour or the month are not
 * counted (the router counts the minute and the provider's day): the provider's 429 still pauses the key
 * then.
 */
export const FREE_TIER_LIMITS: Readonly<Record<string, ProviderLimits>> = {
  /*
   * https://console.groq.com/docs/rate-limits (no date on the page): a per-model table, per organization,
   * "a high level summary and there may be exceptions"; llama-3.1-8b-instant 30 RPM, 14.4K RPD, 6K TPM,
   * 500K TPD; llama-3.3-70b-versatile 30 / 1K / 12K / 100K; openai/gpt-oss-120b and -20b 30 / 1K / 8K / 200K;
   * groq/compound and groq/compound-mini 30 / 250 / 70K and no TPD. The page does not list
   * qwen/qwen3.8-27b or minimaxai/minimax-m2.7: they get `all`, the figures most of its chat models share
   * (30 RPM, 1K RPD, 6K TPM) with the lowest TPD it lists for one (100K) — a deliberate floor, not a
   * published number.
   */
  groq: {
    all: { rpm: 30, rpd: 1000, tpm: 6000, tpd: 100_000 },
    models: {
      'llama-3.1-8b-instant': { rpd: 14_400, tpd: 500_000 },
      'llama-3.3-70b-versatile': { tpm: 12_000 },
      'openai/gpt-oss-120b': { tpm: 8000, tpd: 200_000 },
      'openai/gpt-oss-20b': { tpm: 8000, tpd: 200_000 },
      'groq/compound': { rpd: 250, tpm: 70_000, tpd: null },
      'groq/compound-mini': { rpd: 250, tpm: 70_000, tpd: null },
    },
  },
  /*
   * https://inference-docs.cerebras.ai/support/rate-limits (no date on the page), Free tab: gpt-oss-120b and
   * the qwen-3 models 60K TPM, 1M TPH, 1M TPD, 30 RPM, 900 RPH, 14.4K RPD, per organization; the limits
   * refill continuously (token bucket). The hourly 900 requests are not counted. A later version of that
   * page (a cached/uncached token split) could not be read in full; a third-party summary of it gives the
   * free tier as 5 RPM and 30K TPM. The figures above are the ones read on Cerebras' own page: the key's
   * 429 and its x-ratelimit headers correct them.
   */
  cerebras: { all: { rpm: 30, rpd: 14_400, tpm: 60_000, tpd: 1_000_000 } },
  /*
   * https://ai.google.dev/gemini-api/docs/rate-limits (no date on the page): limits are per project, not
   * per key; requests per day reset at midnight Pacific time (so its day is counted in America/Los_Angeles);
   * the current page publishes no free-tier numbers and sends you to AI Studio for your project's. Earlier
   * versions of the page listed 10 RPM / 250K TPM for the Flash models, with 250 to 500 RPD depending on
   * the version, 5 RPM / 100 RPD for 2.5 Pro and 15 RPM / 1000 RPD for 2.5 Flash-Lite. Kept as a starting
   * point for the models those rows named; the Gemini 3 models are not listed anywhere and share `all`.
   */
  googleai: {
    dayTimeZone: 'America/Los_Angeles',
    all: { rpm: 10, rpd: 250, tpm: 250_000 },
    models: {
      'gemini-2.5-pro': { rpm: 5, rpd: 100 },
      'gemini-2.5-flash-lite': { rpm: 15, rpd: 1000 },
    },
  },
  /*
   * https://openrouter.ai/docs/guides/routing/model-variants/free.md (no date on the page): `:free` models,
   * for the account as a whole (not per model or key): 20 RPM, and 50 requests per day with less than 10
   * credits purchased (1000 with at least 10); the day is the UTC day
   * (https://openrouter.ai/docs/client-sdks/typescript/models/freemodeldailyrequests.md). The lower daily figure is kept: an account with credits raises it in
   * `providers.openrouter.limits`.
   */
  openrouter: { all: { rpm: 20, rpd: 50 } },
  /*
   * NVIDIA publishes no rate-limit page for the build.nvidia.com trial API; 40 RPM across every model is
   * NVIDIA's answer on its developer forum as reported by third parties (for example
   * https://fungather.com/article/201/understanding-nvidia-nim-api-catalog-traffic-limits-and-usage-quotas.html),
   * with token limits explicitly not disclosed. Kept: it is the only figure anyone attributes to NVIDIA.
   * It is counted per model (NVIDIA's quota scope is the model), so 40 a minute on each.
   */
  nvidia: { all: { rpm: 40 } },
  /*
   * https://help.mistral.ai/en/articles/225174-what-are-the-limits-of-the-free-tier (no date on the page):
   * "1 request per second, 500,000 tokens per minute, 1 billion tokens per month" for every free-tier model,
   * per organization (https://docs.mistral.ai/deployment/ai-studio/tier), so they are counted per key across
   * models (the provider's `quotaScope` is `key`). One request a second is counted as 60 a minute; the month
   * is not counted.
   */
  mistral: { all: { rpm: 60, tpm: 500_000 } },
  /*
   * The catalogue's Codestral is served by the same endpoint and key as Mistral (api.mistral.ai), so the
   * free tier above applies. The 30 RPM / 2000 RPD often quoted for Codestral come from community lists
   * (github.com/cheahjs/free-llm-api-resources), not from a Mistral page, and are not used.
   */
  codestral: { all: { rpm: 60, tpm: 500_000 } },
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
