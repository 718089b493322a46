/**
 * From the validated config, the catalogue and the environment to what the engine routes over: one
 * resolved entry per provider and per model, and the model sets. Pure: the environment is passed in.
 */
import { CATALOGUE_MODELS } from '../catalogue/models.js';
import type { CatalogueModel } from '../catalogue/models.js';
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';
import type { CatalogueProvider } from '../catalogue/providers.js';
import {
  FREE_TIER_LIMITS,
  hasLimits,
  modelLimits,
  type BudgetLimits,
} from '../catalogue/free-tier-limits.js';
import { modelFit, type ModelFit } from '../catalogue/model-fit.js';
import { UTC_ZONE } from '../state/day-start.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { isApiKeyText, type Config, type ConfigIssue, type ProviderConfig } from './schema.js';

type Env = Record<string, string | undefined>;

export interface Catalogue {
  providers: readonly CatalogueProvider[];
  models: readonly CatalogueModel[];
}

/** The shipped catalogue. */
export const BUILTIN_CATALOGUE: Catalogue = { providers: CATALOGUE_PROVIDERS, models: CATALOGUE_MODELS };

/** One key of a provider, with the fingerprint every trace, state file and view names it by. */
export interface ProviderKey {
  value: string;
  fingerprint: string;
  /** `config` or `env:NAME`. */
  source: string;
}

export interface ResolvedProvider {
  id: string;
  name: string;
  /** Null when the URL cannot be built (a placeholder's env var is missing, or a custom provider has none). */
  baseUrl: string | null;
  /** The first key (null without one). */
  apiKey: string | null;
  /** The first key's source: `config`, `env:NAME`, or null without a key. */
  keySource: string | null;
  /** Every key, in the order they are tried; empty without a key. Deduplicated. */
  keys: readonly ProviderKey[];
  keyRequired: boolean;
  enabled: boolean;
  /** Not in the catalogue: defined by the config alone. */
  custom: boolean;
  headers: Record<string, string>;
  bodyPreset: 'mistral' | null;
  stripModelPrefix: string | null;
  quotaScope: 'model' | 'key';
  /**
   * Whose limits a key counts against: the catalogue's shared account, else the provider's id. Key-scoped
   * budgets and every provider-wide pause of a key (429, 402) are kept under it, so a pause met on one
   * provider of an account (Mistral, Codestral: one endpoint, one organisation) holds on the others.
   */
  quotaAccount: string;
  /** Where the provider's day starts for its daily limits: an IANA time zone (the config's, the catalogue's, else UTC). */
  dayTimeZone: string;
  signupUrl: string | null;
  /** Catalogue ids, then config `models`, then ids only named in sets (deduplicated). */
  modelIds: string[];
  /** Model ids the provider's own list holds that the router has no entry for (model discovery). */
  discoveredNew: string[];
}

export interface ResolvedModel {
  /** `provider/modelId` */
  key: string;
  provider: string;
  modelId: string;
  /** The id sent upstream (`stripModelPrefix` removed). */
  upstreamModelId: string;
  label: string | null;
  tier: string | null;
  sweScore: number | null;
  context: string | null;
  /** Free-tier limits, per key (and per model unless the provider's quota scope is the key). */
  limits: BudgetLimits;
  /**
   * Whether any of `limits` is set, known once here: the request path asks it of every candidate and
   * attempt, and need not call into the catalogue for it.
   */
  limited: boolean;
  /** Its context window, longest output, tools and images, as far as known before asking. */
  fit: ModelFit;
  /** A catalogue model the provider's own list no longer holds (model discovery): skipped. */
  vanished?: boolean;
}

/**
 * Provider id → the model ids its own list held when last fetched (model discovery), and the context
 * windows it gave (by listed id), where it gave any.
 */
export type DiscoveredModels = ReadonlyMap<
  string,
  { ids: ReadonlySet<string>; windows?: ReadonlyMap<string, number> }
>;

export interface ResolvedConfig {
  config: Config;
  providers: ReadonlyMap<string, ResolvedProvider>;
  /** Every model of every provider, enabled or not, keyed by `provider/modelId`. */
  models: ReadonlyMap<string, ResolvedModel>;
  sets: Readonly<Record<string, readonly string[]>>;
  activeSet: string;
}

/**
 * Splits a model key at the first `/` (model ids may hold more: `groq/openai/gpt-oss-120b`).
 * Null when either side is empty.
 */
export function splitModelKey(key: string): { provider: string; modelId: string } | null {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) return null;
  return { provider: key.slice(0, slash), modelId: key.slice(slash + 1) };
}

/**
 * Problems the schema cannot see: a custom provider needs a base URL and at least one model, and the
 * last-resort model must be one the router knows (a catalogue model, one listed in the provider's
 * `models`, or one a set names), since it is tried only when everything else failed.
 */
export function checkProviders(config: Config, catalogue: Catalogue = BUILTIN_CATALOGUE): ConfigIssue[] {
  const known = new Set(catalogue.providers.map((provider) => provider.id));
  const issues = Object.entries(config.providers).flatMap(([id, provider]) => {
    if (known.has(id)) return [];
    const found: ConfigIssue[] = [];
    if (provider.baseUrl === undefined) {
      found.push({
        path: `providers.${id}.baseUrl`,
        message: 'required for a provider not in the catalogue',
      });
    }
    if (provider.models === undefined || provider.models.length === 0) {
      found.push({
        path: `providers.${id}.models`,
        message: 'list at least one model id for a custom provider',
      });
    }
    return found;
  });
  const lastResort = config.router.failover.lastResortModel;
  const problem = lastResort === null ? null : unknownModel(lastResort, config, catalogue);
  if (problem !== null) issues.push({ path: 'router.failover.lastResortModel', message: problem });
  return issues;
}

/** Why `key` names no model the router knows, or null when it does. */
function unknownModel(key: string, config: Config, catalogue: Catalogue): string | null {
  const split = splitModelKey(key);
  if (!split) return 'must be "provider/modelId"';
  const { provider, modelId } = split;
  const inCatalogue = catalogue.providers.some((entry) => entry.id === provider);
  if (!inCatalogue && config.providers[provider] === undefined) {
    return `no provider "${provider}": name a model as provider/model, e.g. groq/llama-3.3-70b-versatile`;
  }
  const listed =
    catalogue.models.some((model) => model.provider === provider && model.id === modelId) ||
    (config.providers[provider]?.models ?? []).includes(modelId) ||
    Object.values(config.sets ?? {}).some((set) => set.includes(key));
  if (listed) return null;
  return `${provider} has no model "${modelId}" in the catalogue: pick one of its models, or list it in providers.${provider}.models`;
}

/** Fills `{placeholder}`s from the environment; null if any stays unfilled. */
function fillUrl(baseUrl: string, params: Record<string, string> | undefined, env: Env): string | null {
  let missing = false;
  const filled = baseUrl.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => {
    const envName = params?.[name];
    const value = envName === undefined ? undefined : env[envName]?.trim();
    if (!value) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? null : filled;
}

/**
 * The config's keys (`apiKey`, then `apiKeys`), else every variable `apiKeyEnv` names that is set (it
 * replaces the catalogue's list), else the first set variable of the catalogue's list (alternative names
 * of one key). A key given twice is kept once.
 */
function resolveKeys(
  settings: ProviderConfig | undefined,
  entry: CatalogueProvider | undefined,
  env: Env,
): ProviderKey[] {
  const keys = new Map<string, ProviderKey>();
  const add = (raw: string | undefined, source: string): void => {
    const value = raw?.trim();
    // A variable holding no usable key (a non-ASCII character, a line break inside) counts as unset.
    if (value && isApiKeyText(value) && !keys.has(value))
      keys.set(value, { value, fingerprint: keyFingerprint(value), source });
  };
  add(settings?.apiKey, 'config');
  for (const key of settings?.apiKeys ?? []) add(key, 'config');
  if (keys.size > 0) return [...keys.values()];
  const own = settings?.apiKeyEnv;
  if (own !== undefined) {
    for (const name of typeof own === 'string' ? [own] : own) add(env[name], `env:${name}`);
    return [...keys.values()];
  }
  const name = (entry?.keyEnv ?? []).find((candidate) => env[candidate]?.trim());
  if (name !== undefined) add(env[name], `env:${name}`);
  return [...keys.values()];
}

function resolveProvider(
  id: string,
  entry: CatalogueProvider | undefined,
  settings: ProviderConfig | undefined,
  modelIds: string[],
  env: Env,
): ResolvedProvider {
  let baseUrl: string | null = null;
  if (settings?.baseUrl !== undefined) baseUrl = settings.baseUrl;
  else if (entry) baseUrl = fillUrl(entry.baseUrl, entry.urlParams, env);
  const keys = resolveKeys(settings, entry, env);
  return {
    id,
    name: settings?.name ?? entry?.name ?? id,
    baseUrl,
    apiKey: keys[0]?.value ?? null,
    keySource: keys[0]?.source ?? null,
    keys,
    // A custom provider is often a local server without auth; a key is used when one is configured.
    keyRequired: entry?.keyRequired ?? false,
    enabled: settings?.enabled ?? true,
    custom: entry === undefined,
    headers: { ...entry?.headers, ...settings?.headers },
    bodyPreset: entry?.bodyPreset ?? null,
    stripModelPrefix: entry?.stripModelPrefix ?? null,
    quotaScope: entry?.quotaScope ?? 'model',
    quotaAccount: entry?.quotaAccount ?? id,
    dayTimeZone: settings?.dayTimeZone ?? FREE_TIER_LIMITS[id]?.dayTimeZone ?? UTC_ZONE,
    signupUrl: entry?.signupUrl ?? null,
    modelIds: [...new Set(modelIds)],
    discoveredNew: [],
  };
}

/**
 * A provider's model list as discovery may judge it by: only one that names at least one of the provider's
 * catalogue models. A list that names none is in another format or partial (a provider that really dropped
 * every model is rarer than one whose list does not say what it serves), and taking it would skip the whole
 * provider without a word.
 */
function usableList(
  listed: ReadonlySet<string> | undefined,
  provider: ResolvedProvider,
  catalogueModels: ReadonlyMap<string, CatalogueModel>,
  id: string,
): ReadonlySet<string> | undefined {
  if (listed === undefined) return undefined;
  const prefix = provider.stripModelPrefix;
  for (const modelId of provider.modelIds) {
    if (!catalogueModels.has(`${id}/${modelId}`)) continue;
    const upstream = prefix !== null && modelId.startsWith(prefix) ? modelId.slice(prefix.length) : modelId;
    if (listed.has(upstream)) return listed;
  }
  return undefined;
}

const TIER_ORDER = ['S+', 'S', 'A+', 'A', 'A-', 'B+', 'B', 'C'];

function tierRank(tier: string | null): number {
  const rank = tier === null ? -1 : TIER_ORDER.indexOf(tier);
  return rank === -1 ? TIER_ORDER.length : rank;
}

/**
 * The set used when the config defines none: every routable model of every enabled provider with a key
 * (custom providers need none), best first, then the models of the catalogue's keyless providers, best
 * first, so a first run without any key routes at once and a key added later goes ahead of them.
 */
function defaultSet(
  providers: ReadonlyMap<string, ResolvedProvider>,
  models: ReadonlyMap<string, ResolvedModel>,
  catalogueOrder: ReadonlyMap<string, number>,
): string[] {
  const order = (key: string, fallback: number): number =>
    catalogueOrder.get(key) ?? catalogueOrder.size + fallback;
  // 0: keyed (or custom), 1: keyless catalogue provider, null: not routable without a key.
  const group = (provider: ResolvedProvider | undefined): 0 | 1 | null => {
    if (provider === undefined || !provider.enabled || provider.baseUrl === null) return null;
    if (provider.apiKey !== null || provider.custom) return 0;
    return provider.keyRequired ? null : 1;
  };
  return [...models.values()]
    .map((model, index) => ({
      model,
      order: order(model.key, index),
      group: group(providers.get(model.provider)),
    }))
    .filter((entry): entry is typeof entry & { group: 0 | 1 } => entry.group !== null)
    .sort(
      (a, b) =>
        a.group - b.group ||
        tierRank(a.model.tier) - tierRank(b.model.tier) ||
        (b.model.sweScore ?? -1) - (a.model.sweScore ?? -1) ||
        a.order - b.order,
    )
    .map(({ model }) => model.key);
}

/** Every provider's model ids (the catalogue's, the config's, and any a set names), and the catalogue's models by key. */
function modelIdsOf(
  config: Config,
  catalogue: Catalogue,
  ids: readonly string[],
): { modelIds: Map<string, string[]>; catalogueModels: Map<string, CatalogueModel> } {
  const modelIds = new Map<string, string[]>(ids.map((id) => [id, []]));
  const catalogueModels = new Map<string, CatalogueModel>();
  for (const model of catalogue.models) {
    modelIds.get(model.provider)?.push(model.id);
    catalogueModels.set(`${model.provider}/${model.id}`, model);
  }
  for (const [id, settings] of Object.entries(config.providers)) {
    modelIds.get(id)?.push(...(settings.models ?? []));
  }
  // Model lists change faster than the catalogue: a named model of a known provider is taken as it is.
  const named = [...Object.values(config.sets ?? {}).flat(), config.router.failover.lastResortModel ?? ''];
  for (const key of named) {
    const split = splitModelKey(key);
    if (split) modelIds.get(split.provider)?.push(split.modelId);
  }
  return { modelIds, catalogueModels };
}

/** What resolving one provider's models reads. */
interface ModelSources {
  config: Config;
  provider: ResolvedProvider;
  catalogueModels: ReadonlyMap<string, CatalogueModel>;
  discovered: DiscoveredModels;
  /** The provider's own list of its models (upstream ids), when it was fetched and is usable. */
  listed: ReadonlySet<string> | undefined;
}

/** One model of a provider, from the catalogue, the config and what the provider's list said. */
function resolveModel(sources: ModelSources, modelId: string): ResolvedModel {
  const { config, provider, catalogueModels, discovered, listed } = sources;
  const id = provider.id;
  const key = `${id}/${modelId}`;
  const known = catalogueModels.get(key);
  const prefix = provider.stripModelPrefix;
  const upstreamModelId =
    prefix !== null && modelId.startsWith(prefix) ? modelId.slice(prefix.length) : modelId;
  // Only a catalogue model is judged by the list: one the user named stays theirs to keep.
  const vanished =
    listed !== undefined && known !== undefined && !(config.providers[id]?.models ?? []).includes(modelId)
      ? !listed.has(upstreamModelId)
      : false;
  return {
    ...(vanished ? { vanished } : {}),
    key,
    provider: id,
    modelId,
    upstreamModelId,
    label: known?.label ?? null,
    tier: known?.tier ?? null,
    sweScore: known?.sweScore ?? null,
    context: known?.context ?? null,
    ...limitsOf(id, modelId, config.providers[id]),
    fit: modelFit(
      config.providers[id]?.modelFit?.[modelId],
      discovered.get(id)?.windows?.get(upstreamModelId),
      known?.context ?? null,
    ),
  };
}

/** The configured sets (a repeated model dropped), or the default set when none is configured. */
function resolveSets(
  config: Config,
  catalogue: Catalogue,
  providers: ReadonlyMap<string, ResolvedProvider>,
  models: ReadonlyMap<string, ResolvedModel>,
): Record<string, readonly string[]> {
  const configured = config.sets ?? {};
  // Null prototype: a set name looked up here can never reach an inherited member such as `constructor`.
  const sets: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  if (Object.keys(configured).length > 0) {
    // A model is tried at most once per request: a repeat in a set means nothing, so it is dropped here.
    for (const [name, keys] of Object.entries(configured)) sets[name] = [...new Set(keys)];
    return sets;
  }
  const catalogueOrder = new Map(
    catalogue.models.map((model, index) => [`${model.provider}/${model.id}`, index]),
  );
  sets['default'] = defaultSet(providers, models, catalogueOrder);
  return sets;
}

/**
 * Resolves providers (catalogue merged with config, keys from config or environment), models and sets.
 * Never throws: problems show up as a null `baseUrl`, a null `apiKey` or keys the engine skips.
 * Without configured sets, the set `default` holds every model with a key ordered by tier, then SWE score,
 * then the keyless providers' models in the same order.
 */
export function resolveConfig(
  config: Config,
  env: Env,
  catalogue: Catalogue = BUILTIN_CATALOGUE,
  discovered: DiscoveredModels = new Map(),
): ResolvedConfig {
  const entries = new Map(catalogue.providers.map((entry) => [entry.id, entry]));
  const ids = [...entries.keys(), ...Object.keys(config.providers).filter((id) => !entries.has(id))];
  const { modelIds, catalogueModels } = modelIdsOf(config, catalogue, ids);
  const providers = new Map<string, ResolvedProvider>();
  const models = new Map<string, ResolvedModel>();
  for (const id of ids) {
    const provider = resolveProvider(id, entries.get(id), config.providers[id], modelIds.get(id) ?? [], env);
    providers.set(id, provider);
    const listed = usableList(discovered.get(id)?.ids, provider, catalogueModels, id);
    const sources = { config, provider, catalogueModels, discovered, listed };
    const upstreamIds = new Set<string>();
    for (const modelId of provider.modelIds) {
      const model = resolveModel(sources, modelId);
      upstreamIds.add(model.upstreamModelId);
      models.set(model.key, model);
    }
    if (listed !== undefined)
      provider.discoveredNew = [...listed].filter((listedId) => !upstreamIds.has(listedId));
  }
  const sets = resolveSets(config, catalogue, providers, models);
  const activeSet = Object.hasOwn(sets, config.activeSet) ? config.activeSet : 'default';
  return { config, providers, models, sets, activeSet };
}

/**
 * The model behind a key whose provider is known even when no list names the model id (a pinned request
 * for a model a provider added yesterday); null when the provider is unknown.
 */
export function lookupModel(resolved: ResolvedConfig, key: string): ResolvedModel | null {
  const listed = resolved.models.get(key);
  if (listed) return listed;
  const split = splitModelKey(key);
  const provider = split ? resolved.providers.get(split.provider) : undefined;
  if (!split || !provider) return null;
  const prefix = provider.stripModelPrefix;
  return {
    key,
    provider: provider.id,
    modelId: split.modelId,
    upstreamModelId:
      prefix !== null && split.modelId.startsWith(prefix)
        ? split.modelId.slice(prefix.length)
        : split.modelId,
    label: null,
    tier: null,
    sweScore: null,
    context: null,
    ...limitsOf(provider.id, split.modelId, resolved.config.providers[provider.id]),
    fit: modelFit(resolved.config.providers[provider.id]?.modelFit?.[split.modelId], undefined, null),
  };
}

/** A model's limits (see `modelLimits`) and whether it has any. */
function limitsOf(...layers: Parameters<typeof modelLimits>): Pick<ResolvedModel, 'limits' | 'limited'> {
  const limits = modelLimits(...layers);
  return { limits, limited: hasLimits(limits) };
}
