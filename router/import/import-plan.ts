/**
 * What importing a free-coding-models config would change in this router's config: keys, providers switched
 * off and sets, each with a line saying so (keys only by fingerprint). Something this config has already is
 * kept unless `force`. Pure.
 */
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';
import type { ConfigInput } from '../config/schema.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import type { FcmConfig } from './fcm-config.js';

type Providers = NonNullable<ConfigInput['providers']>;

export interface ImportPlan {
  /** The config with the import applied. */
  next: ConfigInput;
  /** One line per decision: `+` added, `~` replaced (`--force`), `=` already so, `!` kept, `-` skipped. */
  lines: string[];
  /** Something would be written. */
  changed: boolean;
}

function fingerprints(keys: readonly string[]): string {
  const noun = keys.length === 1 ? 'key' : 'keys';
  return `${keys.length} ${noun} (${keys.map(keyFingerprint).join(', ')})`;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/** The keys a provider entry holds in the config itself. */
function configKeys(entry: Providers[string] | undefined): string[] {
  const keys = [entry?.apiKey, ...(entry?.apiKeys ?? [])].map((key) => key?.trim() ?? '');
  return [...new Set(keys.filter((key) => key !== ''))];
}

/** What the planning steps share: the providers and sets being built, the lines said, and whether anything changed. */
interface Draft {
  providers: Providers;
  sets: Record<string, string[]>;
  lines: string[];
  changed: boolean;
  known: ReadonlySet<string>;
  force: boolean;
}

/** False (with a line) for a provider this router does not know. */
function knownProvider(draft: Draft, id: string): boolean {
  if (draft.known.has(id)) return true;
  draft.lines.push(`- ${id}: not a provider fcm-router knows, skipped`);
  return false;
}

function planKeys(draft: Draft, fcm: FcmConfig): void {
  const { providers, lines } = draft;
  for (const [id, keys] of Object.entries(fcm.keys)) {
    if (!knownProvider(draft, id)) continue;
    const entry = providers[id] ?? {};
    const existing = configKeys(entry);
    if (sameList(existing, keys)) {
      lines.push(`= ${id}: ${fingerprints(keys)} already`);
      continue;
    }
    if (existing.length > 0 && !draft.force) {
      lines.push(
        `! ${id}: has ${fingerprints(existing)}, kept (--force replaces them with ${fingerprints(keys)})`,
      );
      continue;
    }
    const [first, ...rest] = keys;
    const { apiKeys: _old, ...others } = entry;
    providers[id] = { ...others, apiKey: first, ...(rest.length > 0 ? { apiKeys: rest } : {}) };
    lines.push(`${existing.length > 0 ? '~' : '+'} ${id}: ${fingerprints(keys)}`);
    draft.changed = true;
  }
}

function planDisabled(draft: Draft, fcm: FcmConfig): void {
  const { providers, lines } = draft;
  for (const id of fcm.disabled) {
    if (!knownProvider(draft, id)) continue;
    const entry = providers[id] ?? {};
    if (entry.enabled === false) lines.push(`= ${id}: disabled already`);
    else if (entry.enabled !== undefined && !draft.force)
      lines.push(`! ${id}: enabled here, kept (--force disables it)`);
    else {
      providers[id] = { ...entry, enabled: false };
      lines.push(`+ ${id}: disabled`);
      draft.changed = true;
    }
  }
}

/** The sets to import, each model of an unknown provider dropped; returns the names imported. */
function planSets(draft: Draft, fcm: FcmConfig): string[] {
  const { sets, lines } = draft;
  const imported: string[] = [];
  for (const [name, models] of Object.entries(fcm.sets)) {
    const usable = models.filter((key) => {
      const provider = key.slice(0, key.indexOf('/'));
      if (draft.known.has(provider)) return true;
      lines.push(`- set ${name}: ${key} dropped (not a provider fcm-router knows)`);
      return false;
    });
    if (!/^[A-Za-z0-9._-]+$/.test(name) || usable.length === 0) {
      lines.push(
        `- set ${name}: skipped (${usable.length === 0 ? 'no usable model' : 'not a valid set name'})`,
      );
      continue;
    }
    const existing = sets[name];
    if (existing !== undefined && sameList(existing, usable)) {
      lines.push(`= set ${name}: the same ${usable.length} models already`);
      continue;
    }
    if (existing !== undefined && !draft.force) {
      lines.push(`! set ${name}: exists here, kept (--force replaces it with ${usable.length} models)`);
      continue;
    }
    sets[name] = usable;
    imported.push(name);
    lines.push(`${existing === undefined ? '+' : '~'} set ${name}: ${usable.length} models`);
    draft.changed = true;
  }
  return imported;
}

/** The provider ids an import may use: the catalogue's and those `config` adds. */
export function knownProviders(config: ConfigInput): Set<string> {
  return new Set([
    ...CATALOGUE_PROVIDERS.map((provider) => provider.id),
    ...Object.keys(config.providers ?? {}),
  ]);
}

/**
 * Plans the import of `fcm` into `current`. `known` holds the provider ids this router knows (the
 * catalogue's and the config's own); others are skipped with a line.
 */
export function planImport(
  fcm: FcmConfig,
  current: ConfigInput,
  known: ReadonlySet<string>,
  force: boolean,
): ImportPlan {
  const draft: Draft = {
    providers: { ...current.providers },
    sets: { ...current.sets },
    lines: [],
    changed: false,
    known,
    force,
  };
  planKeys(draft, fcm);
  planDisabled(draft, fcm);
  const imported = planSets(draft, fcm);
  const { sets, lines } = draft;
  const next: ConfigInput = { ...current, providers: draft.providers };
  if (Object.keys(sets).length > 0) next.sets = sets;
  // A config that gains its first sets needs an active one among them.
  const active = fcm.activeSet !== null && fcm.activeSet in sets ? fcm.activeSet : imported[0];
  const activeMissing = current.activeSet === undefined || !(current.activeSet in sets);
  if (active !== undefined && active !== current.activeSet && (activeMissing || force)) {
    next.activeSet = active;
    lines.push(`${current.activeSet === undefined ? '+' : '~'} activeSet: ${active}`);
    draft.changed = true;
  }
  return { next, lines, changed: draft.changed };
}
