/**
 * One provider as the router routes to it: the catalogue's entry merged with the config's settings, its
 * URL's placeholders filled and its keys found (config first, then the environment). Pure: the
 * environment is passed in.
 */
import type { CatalogueProvider } from '../catalogue/providers.js';
import { FREE_TIER_LIMITS } from '../catalogue/free-tier-limits.js';
import { UTC_ZONE } from '../state/day-start.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import { isLoopbackUrl } from './loopback.js';
import type { Env, ProviderKey, ResolvedProvider } from './resolve-config.js';
import { isApiKeyText, type ProviderConfig } from './schema.js';

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

/** A provider from its catalogue entry (none for a custom one), its config and its model ids. */
export function resolveProvider(
  id: string,
  entry: CatalogueProvider | undefined,
  settings: ProviderConfig | undefined,
  modelIds: string[],
  env: Env,
): ResolvedProvider {
  let baseUrl: string | null = null;
  // A pasted `…/v1/` would make `…/v1//chat/completions`, which some servers answer 404.
  if (settings?.baseUrl !== undefined) baseUrl = settings.baseUrl.replace(/\/+$/, '');
  else if (entry) baseUrl = fillUrl(entry.baseUrl, entry.urlParams, env);
  const keys = resolveKeys(settings, entry, env);
  return {
    id,
    name: settings?.name ?? entry?.name ?? id,
    baseUrl,
    local: isLoopbackUrl(baseUrl),
    apiKey: keys[0]?.value ?? null,
    keySource: keys[0]?.source ?? null,
    keys,
    // A custom provider is often a local server without auth; a key is used when one is configured.
    keyRequired: entry?.keyRequired ?? false,
    enabled: settings?.enabled ?? true,
    custom: entry === undefined,
    headers: { ...entry?.headers, ...settings?.headers },
    bodyPreset: settings?.bodyPreset ?? entry?.bodyPreset ?? null,
    stripModelPrefix: entry?.stripModelPrefix ?? null,
    quotaScope: entry?.quotaScope ?? 'model',
    quotaAccount: entry?.quotaAccount ?? id,
    dayTimeZone: settings?.dayTimeZone ?? FREE_TIER_LIMITS[id]?.dayTimeZone ?? UTC_ZONE,
    signupUrl: entry?.signupUrl ?? null,
    modelIds: [...new Set(modelIds)],
    discoveredNew: [],
  };
}
