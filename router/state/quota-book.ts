/**
 * Quota pauses (per model or per provider key) and auth blocks (per provider key), kept as deadlines in a
 * persisted file so a restart does not hammer a provider that asked us to wait.
 */
import { z } from 'zod/v3';
import type { RouterLogger } from '../public-types.js';
import type { Clock } from './clock.js';
import { JsonStateFile } from './json-state-file.js';
import { isKeyFingerprint, keyFingerprint } from './key-fingerprint.js';

export type ProviderPauseReason = 'rate_limit' | 'payment_required';

/** A pause as it applies to one model: the later of its own and its provider's. */
export interface PauseInfo {
  until: number;
  /** Set by the provider (Retry-After, 402): never probe it early. Heuristic pauses may be probed. */
  authoritative: boolean;
  scope: 'model' | 'provider';
}

const modelPauseSchema = z.strictObject({ until: z.number(), authoritative: z.boolean() });
const providerPauseSchema = z.strictObject({
  until: z.number(),
  reason: z.enum(['rate_limit', 'payment_required']),
  authoritative: z.boolean(),
});
const authBlockSchema = z.strictObject({
  fingerprint: z.string().refine(isKeyFingerprint, 'must be a key fingerprint'),
  at: z.number(),
});

const fileSchema = z.strictObject({
  models: z.record(z.string().min(1), modelPauseSchema),
  providers: z.record(z.string().min(1), providerPauseSchema),
  auth: z.record(z.string().min(1), authBlockSchema),
});

type QuotaFile = z.output<typeof fileSchema>;
type ModelPause = z.output<typeof modelPauseSchema>;
type ProviderPause = z.output<typeof providerPauseSchema>;
type AuthBlock = z.output<typeof authBlockSchema>;

export type QuotaScope = { model?: string; provider?: string };

export interface QuotaBookOptions {
  file: string;
  clock: Clock;
  debounceMs: number;
  logger: RouterLogger;
  onChange?: (scope: QuotaScope) => void;
}

export class QuotaBook {
  private readonly options: QuotaBookOptions;
  private readonly models = new Map<string, ModelPause>();
  private readonly providers = new Map<string, ProviderPause>();
  private readonly auth = new Map<string, AuthBlock>();
  private readonly file: JsonStateFile<QuotaFile>;
  /** Bumped by every change (see `version`). */
  private changes = 0;

  constructor(options: QuotaBookOptions) {
    this.options = options;
    this.file = new JsonStateFile<QuotaFile>({
      path: options.file,
      schema: fileSchema,
      debounceMs: options.debounceMs,
      logger: options.logger,
      clock: options.clock,
      snapshot: () => this.snapshot(),
    });
  }

  /** Restores the file; pauses already over are dropped. */
  async load(): Promise<void> {
    const data = await this.file.load();
    if (data === null) return;
    const now = this.options.clock();
    for (const [key, pause] of Object.entries(data.models)) {
      if (pause.until > now) this.models.set(key, pause);
    }
    for (const [id, pause] of Object.entries(data.providers)) {
      if (pause.until > now) this.providers.set(id, pause);
    }
    for (const [id, block] of Object.entries(data.auth)) this.auth.set(id, block);
    this.changes += 1;
  }

  /**
   * A number that changes whenever a pause or an auth block is set or lifted (not when a pause simply
   * runs out): whatever was derived from the book without a pause in it is current while it stays the same.
   */
  get version(): number {
    return this.changes;
  }

  /** Pauses one model for `ms`. An existing later pause is kept. */
  pauseModel(modelKey: string, ms: number, authoritative: boolean): void {
    const until = this.deadline(ms);
    if (until === null) return;
    const current = this.live(this.models.get(modelKey));
    if (current !== undefined && current.until >= until) return;
    this.models.set(modelKey, { until, authoritative });
    this.changed({ model: modelKey });
  }

  /** Pauses every model of a provider (its key's limit or credit) for `ms`. An existing later pause is kept. */
  pauseProvider(providerId: string, ms: number, reason: ProviderPauseReason, authoritative: boolean): void {
    const until = this.deadline(ms);
    if (until === null) return;
    const current = this.live(this.providers.get(providerId));
    if (current !== undefined && current.until >= until) return;
    this.providers.set(providerId, { until, reason, authoritative });
    this.changed({ provider: providerId });
  }

  /** The later of the model's and its provider's pause ends still in the future, else null. */
  pausedUntil(modelKey: string, providerId: string): number | null {
    return this.pauseInfo(modelKey, providerId)?.until ?? null;
  }

  /** The pause that holds the model back longest, with whether it may be probed early. */
  pauseInfo(modelKey: string, providerId: string): PauseInfo | null {
    const model = this.live(this.models.get(modelKey));
    const provider = this.live(this.providers.get(providerId));
    if (provider !== undefined && (model === undefined || provider.until > model.until)) {
      return { until: provider.until, authoritative: provider.authoritative, scope: 'provider' };
    }
    if (model !== undefined)
      return { until: model.until, authoritative: model.authoritative, scope: 'model' };
    return null;
  }

  /**
   * A served request or passing probe: clears the model's pause, its provider's rate-limit pause (and a
   * heuristic payment pause) and the provider's auth block. An authoritative 402 pause stays: one free
   * model answering does not prove the key has credit again.
   */
  clearOnSuccess(modelKey: string, providerId: string): void {
    // The usual case, nothing paused or blocked: no work and no allocation per served request.
    if (this.models.size === 0 && this.providers.size === 0 && this.auth.size === 0) return;
    const scope: QuotaScope = {};
    if (this.models.delete(modelKey)) scope.model = modelKey;
    const pause = this.providers.get(providerId);
    const clearsPause = pause !== undefined && (pause.reason === 'rate_limit' || !pause.authoritative);
    if (clearsPause) this.providers.delete(providerId);
    if (this.auth.delete(providerId) || clearsPause) scope.provider = providerId;
    if (scope.model !== undefined || scope.provider !== undefined) this.changed(scope);
  }

  /** Manual reset of one model's pause. */
  clearModel(modelKey: string): void {
    if (this.models.delete(modelKey)) this.changed({ model: modelKey });
  }

  /**
   * Blocks the provider for this key after a 401/403. Takes the key's fingerprint; anything else is
   * fingerprinted here, so a key can never reach the state file.
   */
  blockAuth(providerId: string, fingerprint: string): void {
    const fp = asFingerprint(fingerprint);
    if (this.auth.get(providerId)?.fingerprint === fp) return;
    this.auth.set(providerId, { fingerprint: fp, at: this.options.clock() });
    this.changed({ provider: providerId });
  }

  /** True while the provider is blocked for this key; a different fingerprint (a new key) lifts the block. */
  isAuthBlocked(providerId: string, fingerprint: string): boolean {
    const block = this.auth.get(providerId);
    if (block === undefined) return false;
    if (block.fingerprint === asFingerprint(fingerprint)) return true;
    this.auth.delete(providerId);
    this.changed({ provider: providerId });
    return false;
  }

  /** Lifts the provider's auth block (a passing key test). */
  clearAuth(providerId: string): void {
    if (this.auth.delete(providerId)) this.changed({ provider: providerId });
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  close(): Promise<void> {
    return this.file.close();
  }

  private deadline(ms: number): number | null {
    return Number.isFinite(ms) && ms > 0 ? this.options.clock() + ms : null;
  }

  private live<P extends { until: number }>(pause: P | undefined): P | undefined {
    return pause !== undefined && pause.until > this.options.clock() ? pause : undefined;
  }

  private changed(scope: QuotaScope): void {
    this.changes += 1;
    this.file.schedule();
    this.options.onChange?.(scope);
  }

  /** Expired pauses are left out, so the file only holds deadlines still ahead. */
  private snapshot(): QuotaFile {
    const now = this.options.clock();
    const ahead = <P extends { until: number }>(map: Map<string, P>): Record<string, P> =>
      Object.fromEntries([...map].filter(([, pause]) => pause.until > now));
    return {
      models: ahead(this.models),
      providers: ahead(this.providers),
      auth: Object.fromEntries(this.auth),
    };
  }
}

function asFingerprint(value: string): string {
  return isKeyFingerprint(value) ? value : keyFingerprint(value);
}
