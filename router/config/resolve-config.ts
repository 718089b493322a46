/**
 * From the validated config, the catalogue and the environment to what the engine routes over: one
 * resolved entry per provider and per model, and the model sets. Pure: the environment is passed in.
 */
import { CATALOGUE_MODELS } from '../catalogue/models.js';
import type { CatalogueModel } from '../catalogue/models.js';
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';
import type { CatalogueProvider } from '../catalogue/providers.js';
import { bodyPresetOf, type BodyPreset, type ProviderPreset } from '../catalogue/body-presets.js';
import { hasLimits, modelLimits, type BudgetLimits } from '../catalogue/free-tier-limits.js';
import { modelFit, type ModelFit } from '../catalogue/model-fit.js';
import { defaultSet } from './default-set.js';
import { resolveProvider } from './resolve-provider.js';
import type { Config } from './schema.js';

/** The environment variables keys and URL placeholders are read from. */
export type Env = Record<string, string | undefined>;

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
  /**
   * Its base URL is on this machine (loopback: a local model server), known once here: a network error on
   * it is that server's failure, never the machine being offline, and the request path need not parse the URL.
   */
  local: boolean;
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
  /** The provider's own reshaping of requests (see `catalogue/body-presets.ts`). */
  bodyPreset: ProviderPreset | null;
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
  /** How its requests are reshaped before they are sent, or null (see `catalogue/body-presets.ts`). */
  bodyPreset: BodyPreset | null;
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
 * A provider's model list as discovery may judge its models gone by (`vanished`): only one that names at
 * least one of the provider's catalogue models. A list that names none is in another format or partial (a
 * provider that really dropped every model is rarer than one whose list does not say what it serves), and
 * taking it would skip the whole provider without a word.
 */
function usableList(
  listed: ReadonlySet<string> | undefined,
  provider: ResolvedProvider,
  catalogueModels: ReadonlyMap<string, CatalogueModel>,
  id: string,
): ReadonlySet<string> | undefined {
  if (listed === undefined) return undefined;
  for (const modelId of provider.modelIds) {
    if (!catalogueModels.has(`${id}/${modelId}`)) continue;
    if (listed.has(upstreamIdOf(provider, modelId))) return listed;
  }
  return undefined;
}

/** The id a provider's model is sent upstream under: its `stripModelPrefix` removed. */
function upstreamIdOf(provider: ResolvedProvider, modelId: string): string {
  const prefix = provider.stripModelPrefix;
  return prefix !== null && modelId.startsWith(prefix) ? modelId.slice(prefix.length) : modelId;
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
  const upstreamModelId = upstreamIdOf(provider, modelId);
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
    bodyPreset: bodyPresetOf(provider.bodyPreset, upstreamModelId),
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
    // What to offer comes from the list itself, usable or not: a custom provider (a local server) has no
    // catalogue model for `usableList` to find, and its list is all there is to offer.
    const fetched = discovered.get(id)?.ids;
    if (fetched !== undefined)
      provider.discoveredNew = [...fetched].filter((listedId) => !upstreamIds.has(listedId));
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
  const upstreamModelId = upstreamIdOf(provider, split.modelId);
  return {
    key,
    provider: provider.id,
    modelId: split.modelId,
    upstreamModelId,
    label: null,
    tier: null,
    sweScore: null,
    context: null,
    ...limitsOf(provider.id, split.modelId, resolved.config.providers[provider.id]),
    fit: modelFit(resolved.config.providers[provider.id]?.modelFit?.[split.modelId], undefined, null),
    bodyPreset: bodyPresetOf(provider.bodyPreset, upstreamModelId),
  };
}

/** A model's limits (see `modelLimits`) and whether it has any. */
function limitsOf(...layers: Parameters<typeof modelLimits>): Pick<ResolvedModel, 'limits' | 'limited'> {
  const limits = modelLimits(...layers);
  return { limits, limited: hasLimits(limits) };
}
