import type { ConfigResponse } from '../api-types.js';
import { diffPaths } from './config-diff.js';
import { saveConfigFile, validateConfig } from './config-store.js';
import {
  BUILTIN_CATALOGUE,
  resolveConfig,
  type DiscoveredModels,
  type ResolvedConfig,
} from './resolve-config.js';
import { DEFAULT_CONFIG, type Config, type ConfigInput, type ConfigIssue } from './schema.js';
import { keysLeavingTheirAddress, maskSecrets, restoreMaskedSecrets } from './secrets.js';

export type UpdateResult =
  /** `keysDropped`: providers whose stored key was dropped because they now point elsewhere. */
  | { ok: true; changed: string[]; keysDropped: string[] }
  | { ok: false; issues: ConfigIssue[] }
  /** Valid, but the file could not be written: nothing was applied. */
  | { ok: false; saveFailed: string };

export interface LiveConfigOptions {
  path: string;
  raw: ConfigInput;
  config: Config;
  env: Record<string, string | undefined>;
  /** Called after a change was validated and saved; the engine routes with it from then on. */
  onApply: (resolved: ResolvedConfig, changed: string[]) => void;
  /** Write changes to `path` (off only for tests that want no file). @default true */
  persist?: boolean;
  /** The providers' own model lists, as last fetched (model discovery). @default none */
  discovered?: () => DiscoveredModels;
}

/**
 * The config the router runs on, and the one way to change it: validate the whole new config, save it
 * atomically (0600), then apply it without a restart. Updates are serialised, so two editors saving at
 * once cannot interleave a read and a write.
 */
export class LiveConfig {
  #raw: ConfigInput;
  #resolved: ResolvedConfig;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LiveConfigOptions) {
    this.#raw = options.raw;
    this.#resolved = this.#resolve(options.config);
  }

  #resolve(config: Config): ResolvedConfig {
    return resolveConfig(config, this.options.env, BUILTIN_CATALOGUE, this.options.discovered?.());
  }

  /** A provider's model list was fetched anew: the same config, resolved again with it, applied. */
  rediscovered(): Promise<void> {
    const run = this.#queue.then(() => {
      this.#resolved = this.#resolve(this.#resolved.config);
      this.options.onApply(this.#resolved, ['discovery']);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  get resolved(): ResolvedConfig {
    return this.#resolved;
  }

  get raw(): ConfigInput {
    return this.#raw;
  }

  get path(): string {
    return this.options.path;
  }

  /** `GET /api/config`: the file as written, the effective config and the defaults, secrets masked. */
  response(): ConfigResponse {
    return {
      config: maskSecrets(this.#raw),
      effective: maskSecrets(this.#resolved.config as ConfigInput),
      defaults: DEFAULT_CONFIG as ConfigInput,
      path: this.options.path,
    };
  }

  /**
   * Replaces the whole config (`PUT /api/config`). Masked keys keep their current value, except where the
   * provider's address or headers change in the same request (see {@link keysLeavingTheirAddress}).
   */
  replace(incoming: unknown): Promise<UpdateResult> {
    return this.#enqueue(() => {
      if (typeof incoming !== 'object' || incoming === null || Array.isArray(incoming)) {
        return { ok: false, issues: [{ path: '(root)', message: 'must be a JSON object' }] };
      }
      // Shape only: the whole candidate is validated before anything is saved.
      const asSent = incoming as ConfigInput;
      const providers: unknown = asSent.providers;
      const keysDropped =
        typeof providers === 'object' && providers !== null && !Array.isArray(providers)
          ? keysLeavingTheirAddress(asSent, this.#raw)
          : [];
      return { raw: restoreMaskedSecrets(asSent, this.#raw, new Set(keysDropped)), keysDropped };
    });
  }

  /** Changes part of the config through a function of the current raw config (sets, keys, toggles). */
  update(change: (raw: ConfigInput, resolved: ResolvedConfig) => ConfigInput): Promise<UpdateResult> {
    return this.#enqueue(() => ({ raw: change(structuredClone(this.#raw), this.#resolved) }));
  }

  #enqueue(next: () => { raw: ConfigInput; keysDropped?: string[] } | UpdateResult): Promise<UpdateResult> {
    const run = this.#queue.then(async (): Promise<UpdateResult> => {
      const proposal = next();
      if (!('raw' in proposal)) return proposal;
      const candidate = proposal.raw;
      const checked = validateConfig(candidate);
      if (!checked.ok) return { ok: false, issues: checked.issues };
      const changed = diffPaths(this.#raw, candidate);
      const keysDropped = proposal.keysDropped ?? [];
      if (changed.length === 0) return { ok: true, changed, keysDropped: [] };
      if (this.options.persist !== false) {
        try {
          await saveConfigFile(this.options.path, candidate);
        } catch (error) {
          return { ok: false, saveFailed: describeSaveError(error) };
        }
      }
      this.#raw = candidate;
      this.#resolved = this.#resolve(checked.config);
      this.options.onApply(this.#resolved, changed);
      return { ok: true, changed, keysDropped };
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** `EACCES: permission denied`: the code and the system's words, without the path (the caller names it). */
function describeSaveError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (!code) return error instanceof Error ? error.message : String(error);
  const words = message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return `${code}: ${words}`;
}
