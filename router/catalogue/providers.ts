/**
 * The starting provider catalogue: free-tier, OpenAI-compatible providers as data. A config entry with the
 * same id merges over one of these; an id not listed here is a custom provider.
 */
import type { ProviderPreset } from './body-presets.js';

export interface CatalogueProvider {
  id: string;
  name: string;
  /** Prefix of `<base>/chat/completions`; may hold `{placeholder}`s filled from `urlParams`. */
  baseUrl: string;
  /** URL placeholder → the environment variable that fills it. */
  urlParams?: Record<string, string>;
  /** Environment variables that may hold the key; the first non-empty one wins. */
  keyEnv: readonly string[];
  /** False for providers that answer without a key (a missing key is then not `missing_key`). */
  keyRequired: boolean;
  signupUrl: string | null;
  /** Extra request headers sent to this provider. */
  headers?: Record<string, string>;
  /** How requests are reshaped before they are sent (parameters it refuses, Mistral's conversation rules). */
  bodyPreset?: ProviderPreset;
  /** Removed from catalogue ids before they go upstream. */
  stripModelPrefix?: string;
  /** Whether free-tier limits apply per model or to the whole key (quota pauses follow this scope). */
  quotaScope: 'model' | 'key';
  /**
   * The account a key-scoped budget belongs to, when another catalogue provider reaches the same account
   * (Codestral is Mistral's endpoint and key): the same key then counts once against its limits. The
   * provider's own id otherwise.
   */
  quotaAccount?: string;
}

type Entry = Omit<CatalogueProvider, 'keyRequired' | 'quotaScope'> &
  Partial<Pick<CatalogueProvider, 'keyRequired' | 'quotaScope'>>;

const ENTRIES: readonly Entry[] = [
  {
    id: 'nvidia',
    name: 'NVIDIA NIM',
    baseUrl: 'https://integrate.api.nvidia.com/v1',
    keyEnv: ['NVIDIA_API_KEY'],
    signupUrl: 'https://build.nvidia.com',
  },
  {
    id: 'groq',
    name: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    keyEnv: ['GROQ_API_KEY'],
    signupUrl: 'https://console.groq.com/keys',
  },
  {
    id: 'cerebras',
    name: 'Cerebras',
    baseUrl: 'https://api.cerebras.ai/v1',
    keyEnv: ['CEREBRAS_API_KEY'],
    signupUrl: 'https://cloud.cerebras.ai',
  },
  {
    id: 'googleai',
    name: 'Google AI Studio',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    keyEnv: ['GOOGLE_API_KEY'],
    signupUrl: 'https://aistudio.google.com/apikey',
    // Gemini 3 refuses a conversation whose tool calls lost their thought signatures.
    bodyPreset: 'gemini',
  },
  {
    id: 'mistral',
    name: 'Mistral La Plateforme',
    baseUrl: 'https://api.mistral.ai/v1',
    keyEnv: ['MISTRAL_API_KEY'],
    signupUrl: 'https://console.mistral.ai/api-keys',
    bodyPreset: 'mistral',
    // The free tier's limits are the organisation's across every model: budgets count per key, and a 429
    // pauses the key's every Mistral model.
    quotaScope: 'key',
  },
  {
    id: 'cloudflare',
    name: 'Cloudflare Workers AI',
    // The account id is part of the path; without it the provider cannot be routed at all.
    baseUrl: 'https://api.cloudflare.com/client/v4/accounts/{account_id}/ai/v1',
    urlParams: { account_id: 'CLOUDFLARE_ACCOUNT_ID' },
    keyEnv: ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_API_KEY'],
    signupUrl: 'https://dash.cloudflare.com',
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: ['OPENROUTER_API_KEY'],
    signupUrl: 'https://openrouter.ai/keys',
    // OpenRouter's app attribution; no secret, shown as the app's site.
    headers: { 'HTTP-Referer': 'http://127.0.0.1:19280', 'X-Title': 'fcm-router' },
    // Free-tier limits count per key, so one 429 pauses every OpenRouter model.
    quotaScope: 'key',
  },
  {
    id: 'sambanova',
    name: 'SambaNova Cloud',
    baseUrl: 'https://api.sambanova.ai/v1',
    keyEnv: ['SAMBANOVA_API_KEY'],
    signupUrl: 'https://cloud.sambanova.ai/apis',
  },
  {
    id: 'ovhcloud',
    name: 'OVHcloud AI Endpoints',
    baseUrl: 'https://oai.endpoints.kepler.ai.cloud.ovh.net/v1',
    keyEnv: ['OVH_AI_ENDPOINTS_ACCESS_TOKEN'],
    signupUrl: 'https://endpoints.ai.cloud.ovh.net',
  },
  {
    id: 'codestral',
    name: 'Codestral (Mistral)',
    baseUrl: 'https://api.mistral.ai/v1',
    keyEnv: ['MISTRAL_API_KEY', 'CODESTRAL_API_KEY'],
    signupUrl: 'https://console.mistral.ai/api-keys',
    bodyPreset: 'mistral',
    // Mistral's free tier, per organisation across models, as for `mistral`; with Mistral's key the two
    // providers' use counts once against it.
    quotaScope: 'key',
    quotaAccount: 'mistral',
  },
  {
    id: 'zai',
    name: 'Z.ai',
    baseUrl: 'https://api.z.ai/api/coding/paas/v4',
    keyEnv: ['ZAI_API_KEY'],
    signupUrl: 'https://z.ai',
    bodyPreset: 'strict',
    // Catalogue ids carry `zai/` to stay unique across providers; the API wants the bare id.
    stripModelPrefix: 'zai/',
  },
  {
    id: 'scaleway',
    name: 'Scaleway Generative APIs',
    baseUrl: 'https://api.scaleway.ai/v1',
    keyEnv: ['SCALEWAY_API_KEY'],
    signupUrl: 'https://console.scaleway.com/iam/api-keys',
  },
  {
    id: 'qwen',
    name: 'Alibaba Model Studio (DashScope)',
    baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
    keyEnv: ['DASHSCOPE_API_KEY'],
    signupUrl: 'https://modelstudio.console.alibabacloud.com',
  },
  {
    id: 'opencode-zen',
    name: 'OpenCode Zen',
    baseUrl: 'https://opencode.ai/zen/v1',
    keyEnv: ['OPENCODE_ZEN_API_KEY'],
    signupUrl: 'https://opencode.ai/auth',
  },
  {
    id: 'kilo',
    name: 'Kilo Gateway',
    baseUrl: 'https://api.kilo.ai/api/gateway',
    keyEnv: ['KILO_API_KEY', 'KILO_TOKEN'],
    keyRequired: false,
    signupUrl: 'https://kilo.ai',
  },
  {
    id: 'llm7',
    name: 'LLM7',
    baseUrl: 'https://api.llm7.io/v1',
    keyEnv: ['LLM7_API_KEY'],
    keyRequired: false,
    signupUrl: 'https://token.llm7.io',
  },
  {
    id: 'routeway',
    name: 'Routeway',
    baseUrl: 'https://api.routeway.ai/v1',
    keyEnv: ['ROUTEWAY_API_KEY'],
    signupUrl: 'https://routeway.ai',
  },
  {
    id: 'novita',
    name: 'Novita AI',
    baseUrl: 'https://api.novita.ai/openai/v1',
    keyEnv: ['NOVITA_API_KEY'],
    signupUrl: 'https://novita.ai/settings/key-management',
  },
  {
    id: 'pollinations',
    name: 'Pollinations AI',
    baseUrl: 'https://gen.pollinations.ai/v1',
    keyEnv: ['POLLINATIONS_API_KEY'],
    signupUrl: 'https://pollinations.ai',
  },
  {
    id: 'siliconflow',
    name: 'SiliconFlow',
    baseUrl: 'https://api.siliconflow.cn/v1',
    keyEnv: ['SILICONFLOW_API_KEY'],
    signupUrl: 'https://cloud.siliconflow.cn',
  },
  {
    id: 'requesty',
    name: 'Requesty',
    baseUrl: 'https://router.requesty.ai/v1',
    keyEnv: ['REQUESTY_API_KEY'],
    signupUrl: 'https://requesty.ai',
  },
  {
    id: 'orcarouter',
    name: 'OrcaRouter',
    baseUrl: 'https://api.orcarouter.ai/v1',
    keyEnv: ['ORCAROUTER_API_KEY'],
    signupUrl: 'https://orcarouter.ai',
  },
  {
    id: 'vercel-gateway',
    name: 'Vercel AI Gateway',
    baseUrl: 'https://ai-gateway.vercel.sh/v1',
    keyEnv: ['AI_GATEWAY_API_KEY'],
    signupUrl: 'https://vercel.com/ai-gateway',
  },
  {
    id: 'ollama-cloud',
    name: 'Ollama Cloud',
    baseUrl: 'https://ollama.com/v1',
    keyEnv: ['OLLAMA_API_KEY'],
    signupUrl: 'https://ollama.com/settings/keys',
  },
];

/** Every built-in provider, in catalogue order. */
export const CATALOGUE_PROVIDERS: readonly CatalogueProvider[] = ENTRIES.map((entry) => ({
  ...entry,
  keyRequired: entry.keyRequired ?? true,
  quotaScope: entry.quotaScope ?? 'model',
}));
