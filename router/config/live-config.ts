import type { ConfigResponse } from '../api-types.js';
import { diffPaths } from './config-diff.js';
import { describeWriteError, loadConfigFile, validateConfig, writeConfigGuarded } from './config-store.js';
import { changeOf, invalidOnDiskMessage, judgeFile, staleSaveMessage, type FileChange } from './file-sync.js';
import {
  BUILTIN_CATALOGUE,
  resolveConfig,
  type Catalogue,
  type DiscoveredModels,
  type ResolvedConfig,
} from './resolve-config.js';
import { DEFAULT_CONFIG, type Config, type ConfigInput, type ConfigIssue } from './schema.js';
import { maskSecrets } from './secrets.js';
import { checkWhole, wholeCandidate } from './whole-config.js';

export type UpdateResult =
  /** `keysDropped`: providers whose stored key was dropped because they now point elsewhere. */
  | { ok: true; changed: string[]; keysDropped: string[]; revision: string }
  | { ok: false; issues: ConfigIssue[] }
  /** Valid, but the file could not be written: nothing was applied. */
  | { ok: false; saveFailed: string }
  /** Refused: the file changed on disk since the change was based on it (`stale`), or holds an invalid edit. */
  | { ok: false; conflict: string; reason: 'stale' | 'invalid' };

export interface LiveConfigOptions {
  path: string;
  raw: ConfigInput;
  config: Config;
  /** The revision of the file `raw` was read from (see `LoadResult`). */
  revision: string;
  env: Record<string, string | undefined>;
  /** Called when the file was changed by someone else (after the listeners of `onApplied`, when applied). */
  onFileChange?: (change: FileChange) => void;
  /** The providers' own model lists, as last fetched (model discovery). @default none */
  discovered?: () => DiscoveredModels;
  /** The providers and models known without the config. @default {@link BUILTIN_CATALOGUE} */
  catalogue?: Catalogue;
}

/** Told of each config applied, with the paths that changed. */
export type AppliedListener = (resolved: ResolvedConfig, changed: string[]) => void;

/** What a change is based on: a revision the caller read, and whether it replaces the whole config. */
interface Basis {
  revision?: string;
  whole: boolean;
}

/**
 * The config the router runs on, and the one way to change it: validate the whole new config, save it
 * atomically (0600), then apply it without a restart. Updates are serialised, so two editors saving at
 * once cannot interleave a read and a write. Before each one the file is read again: an edit made there
 * is taken first (or, when invalid, blocks saving), so no save replaces content the router has not read.
 */
export class LiveConfig {
  #raw: ConfigInput;
  #resolved: ResolvedConfig;
  #queue: Promise<unknown> = Promise.resolve();
  /** The revision of the file the config in use was read from or written as. */
  #revision: string;
  /** The revision the file had when last read or written (differs from `#revision` while invalid). */
  #seen: string;
  /** The issues of the invalid edit last seen on disk, or null. */
  #problem: ConfigIssue[] | null = null;
  readonly #appliedListeners = new Set<AppliedListener>();

  constructor(private readonly options: LiveConfigOptions) {
    this.#raw = options.raw;
    this.#resolved = this.#resolve(options.config);
    this.#revision = this.#seen = options.revision;
  }

  /**
   * Subscribes to each change applied (validated and saved, or taken from the file, or resolved again with
   * new model lists): the engine routes with it from then on. Returns the unsubscribe function.
   */
  onApplied(listener: AppliedListener): () => void {
    this.#appliedListeners.add(listener);
    return () => this.#appliedListeners.delete(listener);
  }

  #applied(changed: string[]): void {
    for (const listener of this.#appliedListeners) listener(this.#resolved, changed);
  }

  #resolve(config: Config): ResolvedConfig {
    const catalogue = this.options.catalogue ?? BUILTIN_CATALOGUE;
    return resolveConfig(config, this.options.env, catalogue, this.options.discovered?.());
  }

  /** A provider's model list was fetched anew: the same config, resolved again with it, applied. */
  rediscovered(): Promise<void> {
    const run = this.#queue.then(() => {
      this.#resolved = this.#resolve(this.#resolved.config);
      this.#applied(['discovery']);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  get resolved(): ResolvedConfig {
    return this.#resolved;
  }

  /**
   * The breakers' settings as they are now: a bound method, so the breaker store reads them here on each
   * request, with no closure of the daemon's in between.
   */
  readonly breakerSettings = (): ResolvedConfig['config']['router']['breaker'] =>
    this.#resolved.config.router.breaker;

  get raw(): ConfigInput {
    return this.#raw;
  }

  get path(): string {
    return this.options.path;
  }

  /** The environment the config is resolved in (keys from variables): the daemon's own. */
  get env(): Record<string, string | undefined> {
    return this.options.env;
  }

  get revision(): string {
    return this.#revision;
  }

  /** `GET /api/config`: the file as written, the effective config and the defaults, secrets masked. */
  response(): ConfigResponse {
    return {
      config: maskSecrets(this.#raw),
      effective: maskSecrets(this.#resolved.config as ConfigInput),
      defaults: DEFAULT_CONFIG as ConfigInput,
      path: this.options.path,
      revision: this.#revision,
      fileProblem: this.#problem ? { path: this.options.path, issues: this.#problem } : null,
    };
  }

  /**
   * Reads the file again and takes an edit made there: a valid one is applied as a save would be, an
   * invalid one is kept on disk and reported. Resolves with what changed, or null when nothing did.
   */
  syncWithFile(): Promise<FileChange | null> {
    const run = this.#queue.then(() => this.#sync());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #sync(): Promise<FileChange | null> {
    const loaded = await loadConfigFile(this.options.path);
    if (loaded.revision === this.#seen) return null;
    this.#seen = loaded.revision;
    const verdict = judgeFile(loaded, this.#raw);
    this.#problem = verdict.take === 'problem' ? verdict.issues : null;
    if (verdict.take === 'config') {
      this.#raw = verdict.raw;
      this.#revision = loaded.revision;
      if (verdict.changed.length > 0) {
        this.#resolved = this.#resolve(verdict.config);
        this.#applied(verdict.changed);
      }
    }
    const change = changeOf(verdict);
    this.options.onFileChange?.(change);
    return change;
  }

  /**
   * Replaces the whole config (`PUT /api/config`). Masked keys keep their current value, except where the
   * provider's address or headers change in the same request (see {@link wholeCandidate}).
   * `basedOn`: the revision the sender read; an older one is refused, as is any whole config sent while
   * the file held an edit the router had not read yet.
   */
  replace(incoming: unknown, basedOn?: string): Promise<UpdateResult> {
    return this.#enqueue({ whole: true, ...(basedOn === undefined ? {} : { revision: basedOn }) }, () =>
      wholeCandidate(incoming, this.#raw),
    );
  }

  /**
   * The problems `replace(incoming)` would be refused for now (none: it would be saved) and the providers
   * whose keys it would drop; nothing saved.
   */
  check(incoming: unknown): { issues: ConfigIssue[]; keysDropped: string[] } {
    return checkWhole(incoming, this.#raw);
  }

  /**
   * Changes part of the config through a function of the current raw config (sets, keys, toggles). An
   * edit made on disk meanwhile is read first, so the change is made to it. `basedOn`: the revision the
   * sender read what it sends from (a form filled from the file); an older one is refused.
   */
  update(
    change: (raw: ConfigInput, resolved: ResolvedConfig) => ConfigInput,
    basedOn?: string,
  ): Promise<UpdateResult> {
    const basis: Basis = { whole: false, ...(basedOn === undefined ? {} : { revision: basedOn }) };
    return this.#enqueue(basis, () => ({
      raw: change(structuredClone(this.#raw), this.#resolved),
    }));
  }

  /** Null when a change on `basis` may be saved now (the file read again first), else the refusal. */
  async #refusal(basis: Basis): Promise<UpdateResult | null> {
    const change = await this.#sync();
    const file = this.options.path;
    if (this.#problem)
      return { ok: false, conflict: invalidOnDiskMessage(file, this.#problem), reason: 'invalid' };
    const stale = basis.revision !== undefined && basis.revision !== this.#revision;
    // A whole config sent without a revision cannot hold an edit the router had not read when it came.
    const unseen = basis.whole && basis.revision === undefined && change?.status === 'applied';
    return stale || unseen ? { ok: false, conflict: staleSaveMessage(file), reason: 'stale' } : null;
  }

  #enqueue(
    basis: Basis,
    next: () => { raw: ConfigInput; keysDropped?: string[] } | UpdateResult,
  ): Promise<UpdateResult> {
    const run = this.#queue.then(async (): Promise<UpdateResult> => {
      const refused = await this.#refusal(basis);
      if (refused) return refused;
      const proposal = next();
      if (!('raw' in proposal)) return proposal;
      const candidate = proposal.raw;
      const checked = validateConfig(candidate);
      if (!checked.ok) return { ok: false, issues: checked.issues };
      const changed = diffPaths(this.#raw, candidate);
      const keysDropped = proposal.keysDropped ?? [];
      if (changed.length === 0) return { ok: true, changed, keysDropped: [], revision: this.#revision };
      const written = await this.#write(candidate);
      if (!written.ok) return written;
      this.#raw = candidate;
      this.#resolved = this.#resolve(checked.config);
      this.#applied(changed);
      return { ok: true, changed, keysDropped, revision: this.#revision };
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Writes `raw` through the guarded writer; the file must still be as last read. */
  async #write(raw: ConfigInput): Promise<{ ok: true } | UpdateResult> {
    try {
      const written = await writeConfigGuarded(this.options.path, raw, this.#seen);
      if (!written.ok) return { ok: false, conflict: staleSaveMessage(this.options.path), reason: 'stale' };
      this.#revision = this.#seen = written.revision;
      return { ok: true };
    } catch (error) {
      return { ok: false, saveFailed: describeWriteError(error) };
    }
  }
}
