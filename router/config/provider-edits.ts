/**
 * The edits the dashboard makes to one provider of the raw config: add a provider, add or remove one of
 * its keys (and put a removed one back), switch its probes and override its free-tier limits. Pure: each
 * returns a new config and leaves everything else as it was; the caller validates the result with the
 * config's schema before anything is saved.
 */
import { keyFingerprint } from '../state/key-fingerprint.js';
import type { ConfigInput } from './schema.js';

type Providers = NonNullable<ConfigInput['providers']>;
type ProviderInput = Providers[string];

/** What the Add provider form sends: a provider the catalogue does not know. */
export interface NewProvider {
  id: string;
  name?: string | undefined;
  baseUrl: string;
  /** Its keys in the order they are tried; none for a provider that needs no key. */
  apiKeys: readonly string[];
  models: readonly string[];
  headers?: Readonly<Record<string, string>> | undefined;
}

/** A key taken out of a provider's config: its value and where it stood among the provider's keys. */
export interface TakenKey {
  value: string;
  index: number;
}

/**
 * The provider's settings the Providers view changes, as sent (the config's schema judges them after);
 * `null` removes one (back to its default).
 */
export interface ProviderSettingsChange {
  probe?: Readonly<Record<string, unknown>> | null | undefined;
  limits?: Readonly<Record<string, unknown>> | null | undefined;
}

/** `raw` with `id`'s entry replaced; a computed key, so a name like `__proto__` stays a plain (invalid) id. */
function withEntry(raw: ConfigInput, id: string, entry: ProviderInput): ConfigInput {
  return { ...raw, providers: { ...raw.providers, [id]: entry } };
}

/** A provider's keys as the config lists them, in the order they are tried (`apiKey`, then `apiKeys`). */
export function configKeys(entry: ProviderInput | undefined): string[] {
  return [entry?.apiKey, ...(entry?.apiKeys ?? [])].filter(
    (key): key is string => key !== undefined && key.trim() !== '',
  );
}

/** The entry with its keys laid out again: the first as `apiKey`, the rest as `apiKeys` (absent when none). */
function withKeys(entry: ProviderInput, keys: readonly string[]): ProviderInput {
  const { apiKey: _key, apiKeys: _keys, ...rest } = entry;
  const [first, ...more] = keys;
  return {
    ...rest,
    ...(first === undefined ? {} : { apiKey: first }),
    ...(more.length === 0 ? {} : { apiKeys: more }),
  };
}

/** `raw` with a provider the catalogue does not know added: its address, keys, models and headers. */
export function withNewProvider(raw: ConfigInput, provider: NewProvider): ConfigInput {
  const headers = provider.headers ?? {};
  const entry: ProviderInput = withKeys(
    {
      ...(provider.name ? { name: provider.name } : {}),
      baseUrl: provider.baseUrl,
      models: [...provider.models],
      ...(Object.keys(headers).length > 0 ? { headers: { ...headers } } : {}),
    },
    provider.apiKeys,
  );
  return withEntry(raw, provider.id, entry);
}

/** `raw` with `apiKey` added after `provider`'s other keys (as its `apiKey` when it has none). */
export function withAddedKey(raw: ConfigInput, provider: string, apiKey: string): ConfigInput {
  const entry = raw.providers?.[provider] ?? {};
  return withEntry(raw, provider, withKeys(entry, [...configKeys(entry), apiKey]));
}

/**
 * `raw` without the config key of `provider` whose fingerprint is `fingerprint`, and the key taken (to put
 * back on undo); null when the config holds no such key (a key from the environment is removed there).
 */
export function withoutKey(
  raw: ConfigInput,
  provider: string,
  fingerprint: string,
): { raw: ConfigInput; taken: TakenKey } | null {
  const entry = raw.providers?.[provider];
  const keys = configKeys(entry);
  const index = keys.findIndex((key) => keyFingerprint(key.trim()) === fingerprint);
  const value = keys[index];
  if (entry === undefined || value === undefined) return null;
  const rest = keys.filter((_key, at) => at !== index);
  return { raw: withEntry(raw, provider, withKeys(entry, rest)), taken: { value, index } };
}

/** `raw` with a removed key back where it stood (or last, when fewer keys are left); once only. */
export function withRestoredKey(raw: ConfigInput, provider: string, taken: TakenKey): ConfigInput {
  const entry = raw.providers?.[provider] ?? {};
  const keys = configKeys(entry);
  if (keys.includes(taken.value)) return raw;
  keys.splice(Math.min(taken.index, keys.length), 0, taken.value);
  return withEntry(raw, provider, withKeys(entry, keys));
}

/** `raw` with `provider`'s probes and limits as `change` says; what it leaves out stays as it was. */
export function withProviderSettings(
  raw: ConfigInput,
  provider: string,
  change: ProviderSettingsChange,
): ConfigInput {
  const entry: ProviderInput = { ...raw.providers?.[provider] };
  for (const name of ['probe', 'limits'] as const) {
    const value = change[name];
    if (value === null) delete entry[name];
    else if (value !== undefined) Object.assign(entry, { [name]: value });
  }
  return withEntry(raw, provider, entry);
}
