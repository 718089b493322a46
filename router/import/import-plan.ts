/**
 * What importing a free-coding-models config would change in this router's config: keys (or the variables
 * holding them), providers switched off and sets, each with a line saying so (keys only by fingerprint).
 * Something this config has already is kept unless `force`; a config that had no sets of its own keeps
 * its automatic set `default`, written out beside the imported ones. Pure.
 */
import { CATALOGUE_PROVIDERS } from '../catalogue/providers.js';
import { isOwnKeyEnvName, type ConfigInput } from '../config/schema.js';
import { hasOwnSets } from '../config/set-edits.js';
import { keyFingerprint } from '../state/key-fingerprint.js';
import type { FcmConfig } from './fcm-config.js';
import type { FcmKeys } from './fcm-keys.js';

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
function configKeys(entry: Providers[string]): string[] {
  const keys = [entry.apiKey, ...(entry.apiKeys ?? [])].map((key) => key?.trim() ?? '');
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

/** Why `id`'s key must not be read from these variables, or null. */
function envProblem(id: string, names: readonly string[]): string | null {
  // The variable's value goes to this provider as its bearer key: never another provider's key or another
  // secret of the environment, even if a config typo names one.
  const own = CATALOGUE_PROVIDERS.find((provider) => provider.id === id)?.keyEnv ?? [];
  const refused = names.filter((name) => !own.includes(name) && !isOwnKeyEnvName(name));
  if (refused.length === 0) return null;
  const named = refused.map((name) => `\${${name}}`).join(', ');
  const allowed = own.length > 0 ? `${own.join(' or ')}, or one` : 'one';
  return `apiKeys.${id}: ${named} is not a variable fcm-router reads ${id}'s key from; use ${allowed} made for fcm-router (FCM_…_KEY, FCM_…_TOKEN)`;
}

/** Keys or variables, with what they hold. */
type KeySource = Exclude<FcmKeys, { kind: 'unusable' }>;

function sourceValues(source: KeySource): string[] {
  return source.kind === 'keys' ? source.keys : source.names;
}

/** `2 keys (6f0b3c1d2e4a, 1a2b3c4d5e6f)` or `key from $GROQ_API_KEY`: never a key itself. */
function describe(source: KeySource): string {
  if (source.kind === 'keys') return fingerprints(source.keys);
  const noun = source.names.length === 1 ? 'key' : 'keys';
  return `${noun} from ${source.names.map((name) => `$${name}`).join(', ')}`;
}

/** Where a provider's entry in the config takes its keys from: its keys (used first), else its variables. */
function configSource(entry: Providers[string]): KeySource | null {
  const keys = configKeys(entry);
  if (keys.length > 0) return { kind: 'keys', keys };
  const env = entry.apiKeyEnv;
  if (env === undefined) return null;
  return { kind: 'env', names: typeof env === 'string' ? [env] : [...env] };
}

/** The entry's key fields for `source`. */
function keyFields(source: KeySource): Providers[string] {
  if (source.kind === 'env') {
    const [first, ...rest] = source.names;
    return { apiKeyEnv: rest.length > 0 ? source.names : first };
  }
  const [first, ...rest] = source.keys;
  return { apiKey: first, ...(rest.length > 0 ? { apiKeys: rest } : {}) };
}

function planProviderKeys(draft: Draft, id: string, wanted: KeySource): void {
  const { providers, lines } = draft;
  const entry = providers[id] ?? {};
  const existing = configSource(entry);
  if (existing?.kind === wanted.kind && sameList(sourceValues(existing), sourceValues(wanted))) {
    lines.push(`= ${id}: ${describe(wanted)} already`);
    return;
  }
  if (existing !== null && !draft.force) {
    const has = existing.kind === 'keys' ? describe(existing) : `its ${describe(existing)}`;
    lines.push(`! ${id}: has ${has}, kept (--force replaces them with ${describe(wanted)})`);
    return;
  }
  const { apiKey: _key, apiKeys: _keys, apiKeyEnv: _env, ...others } = entry;
  providers[id] = { ...others, ...keyFields(wanted) };
  lines.push(`${existing !== null ? '~' : '+'} ${id}: ${describe(wanted)}`);
  draft.changed = true;
}

function planKeys(draft: Draft, fcm: FcmConfig): void {
  for (const [id, read] of Object.entries(fcm.keys)) {
    if (!knownProvider(draft, id)) continue;
    const problem =
      read.kind === 'unusable' ? read.problem : read.kind === 'env' ? envProblem(id, read.names) : null;
    if (problem !== null) draft.lines.push(`- ${id}: skipped (${problem})`);
    else if (read.kind !== 'unusable') planProviderKeys(draft, id, read);
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
      lines.push(`= set ${name}: the same ${modelCount(usable.length)} already`);
      continue;
    }
    if (existing !== undefined && !draft.force) {
      lines.push(`! set ${name}: exists here, kept (--force replaces it with ${modelCount(usable.length)})`);
      continue;
    }
    sets[name] = usable;
    imported.push(name);
    lines.push(`${existing === undefined ? '+' : '~'} set ${name}: ${modelCount(usable.length)}`);
    draft.changed = true;
  }
  return imported;
}

/** `1 model`, `3 models`. */
const modelCount = (count: number): string => `${count} model${count === 1 ? '' : 's'}`;

/** The provider ids an import may use: the catalogue's and those `config` adds. */
export function knownProviders(config: ConfigInput): Set<string> {
  return new Set([
    ...CATALOGUE_PROVIDERS.map((provider) => provider.id),
    ...Object.keys(config.providers ?? {}),
  ]);
}

/** The sets the config routes over now, as it resolves them: the automatic `default` when it names none. */
export type EffectiveSets = Readonly<Record<string, readonly string[]>>;

/**
 * The automatic set `default` to write out beside the sets the import brings a config that had none of its
 * own: naming sets ends the automatic one, and it held every model with a key and the keyless ones after
 * them (`fcm:default`), so it is kept as it stood. Null when there is nothing to keep: the config has sets
 * of its own, the import brings none, or it brings a `default` of its own.
 */
function keptDefaultSet(
  current: ConfigInput,
  effective: EffectiveSets,
  sets: Readonly<Record<string, string[]>>,
  imported: readonly string[],
): string[] | null {
  if (hasOwnSets(current) || imported.length === 0 || Object.hasOwn(sets, 'default')) return null;
  const models = Object.hasOwn(effective, 'default') ? effective['default'] : undefined;
  return models !== undefined && models.length > 0 ? [...models] : null;
}

/** The active set after the import, with a line saying what became of it. */
function planActiveSet(
  draft: Draft,
  fcm: FcmConfig,
  current: ConfigInput,
  imported: string[],
): string | undefined {
  const { sets, lines } = draft;
  // A config that gains its first sets needs an active one among them: the automatic set it had active,
  // though kept, was no choice of the user's.
  const active = fcm.activeSet !== null && fcm.activeSet in sets ? fcm.activeSet : imported[0];
  const activeMissing =
    !hasOwnSets(current) || current.activeSet === undefined || !(current.activeSet in sets);
  if (active === undefined || active === current.activeSet) return current.activeSet;
  if (activeMissing || draft.force) {
    lines.push(`${current.activeSet === undefined ? '+' : '~'} activeSet: ${active}`);
    draft.changed = true;
    return active;
  }
  lines.push(`! activeSet: ${String(current.activeSet)} kept (--force makes it ${active})`);
  return current.activeSet;
}

/** What an import is planned against. */
export interface ImportTarget {
  /** This router's config as written. */
  current: ConfigInput;
  /** The sets it routes over now ({@link EffectiveSets}). */
  effective: EffectiveSets;
  /** The provider ids this router knows (the catalogue's and the config's own); others are skipped with a line. */
  known: ReadonlySet<string>;
  /** Replace what the config has already. */
  force: boolean;
}

/** Plans the import of `fcm` into the target's config. */
export function planImport(fcm: FcmConfig, { current, effective, known, force }: ImportTarget): ImportPlan {
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
  const kept = keptDefaultSet(current, effective, draft.sets, imported);
  if (kept !== null) {
    draft.sets = { default: kept, ...draft.sets };
    draft.lines.push(
      `+ set default: ${modelCount(kept.length)} (the automatic set as it stood, written out so it stays)`,
    );
  }
  const next: ConfigInput = { ...current, providers: draft.providers };
  if (Object.keys(draft.sets).length > 0) next.sets = draft.sets;
  const activeSet = planActiveSet(draft, fcm, current, imported);
  if (activeSet !== undefined) next.activeSet = activeSet;
  return { next, lines: draft.lines, changed: draft.changed };
}
