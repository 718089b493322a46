/**
 * Quota pauses (per model and key, or per provider key) and auth blocks (per provider key), kept as
 * deadlines in a persisted file so a restart does not hammer a provider that asked us to wait. Every entry
 * is scoped to one key by its fingerprint (`groq/llama @6f0b3c1d2e4a`): a provider with several keys moves
 * on to the next one while one waits. Entries from older files, scoped to no key, apply to every key.
 */
import { z } from 'zod/v3';
import path from 'node:path';
import { BudgetBook } from './budget-book.js';
import { UsageBook } from './usage-book.js';
import { StateBook, type StateBookOptions } from './state-book.js';
import { isKeyFingerprint, keyFingerprint } from './key-fingerprint.js';
import { KEY_MARK, scopedId } from './scoped-id.js';
import { pauseRepeat, REPEAT_WINDOW_MS, repeatedPauseMs } from './pause-repeat.js';

export type ProviderPauseReason = 'rate_limit' | 'payment_required' | 'region_refused';

/** A pause as it applies to one model: the later of its own and its provider's. */
export interface PauseInfo {
  until: number;
  /** Set by the provider (Retry-After, 402): never probe it early. Heuristic pauses may be probed. */
  authoritative: boolean;
  scope: 'model' | 'provider';
  /**
   * What paused it: a rate limit (429) or, for a provider-wide pause, an account out of credit (402) or a
   * provider that does not serve requests from this network location.
   */
  reason: ProviderPauseReason;
  /** 1, or how many 429s in a row met the model as its pauses ran out (`pause-repeat.ts`). */
  repeat: number;
}

const modelPauseSchema = z.strictObject({
  until: z.number(),
  authoritative: z.boolean(),
  repeat: z.number().int().min(1).max(1000).optional(),
});
const providerPauseSchema = z.strictObject({
  until: z.number(),
  reason: z.enum(['rate_limit', 'payment_required', 'region_refused']),
  authoritative: z.boolean(),
  repeat: z.number().int().min(1).max(1000).optional(),
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

/**
 * The longest pause the router ever sets (a 402's hour; a Retry-After is capped at 15 minutes): a pause
 * read from the file is cut to this from the moment it is loaded, so a damaged or hand-edited `until`
 * (`9e15`) cannot hold a key for ever.
 */
export const LONGEST_PAUSE_MS = 3_600_000;

export interface QuotaBookOptions extends StateBookOptions {
  /** Where the budget counts live. @default `budgets.json` beside `file` */
  budgetFile?: string;
  /** Where the daily usage lives. @default `usage.json` beside `file` */
  usageFile?: string;
  onChange?: (scope: QuotaScope) => void;
}

export class QuotaBook extends StateBook<QuotaFile> {
  private readonly options: QuotaBookOptions;
  private readonly models = new Map<string, ModelPause>();
  private readonly providers = new Map<string, ProviderPause>();
  private readonly auth = new Map<string, AuthBlock>();
  /** Bumped by every change (see `version`). */
  private changes = 0;
  /** The scopes any pause is kept under, as they were at `pausedScopesAt` changes (see `scopesPaused`). */
  private pausedScopes: ReadonlySet<string> = new Set();
  private pausedScopesAt = -1;
  /** Free-tier budget counts: the other half of what a key may still do. */
  readonly budgets: BudgetBook;
  /** What each model and key used per day. */
  readonly usage: UsageBook;

  constructor(options: QuotaBookOptions) {
    super(options, fileSchema);
    this.options = options;
    const { time, debounceMs, logger } = options;
    const beside = (name: string) => path.join(path.dirname(options.file), name);
    this.budgets = new BudgetBook({
      file: options.budgetFile ?? beside('budgets.json'),
      time,
      debounceMs,
      logger,
    });
    this.usage = new UsageBook({ file: options.usageFile ?? beside('usage.json'), time, debounceMs, logger });
  }

  /** Restores the file and the budget and usage books. */
  override async load(): Promise<void> {
    await Promise.all([this.budgets.load(), this.usage.load()]);
    await super.load();
  }

  /**
   * Pauses over for longer than a repeat's window are dropped (one over more recently is kept, as in memory:
   * a 429 as it runs out repeats it), longer ones cut to {@link LONGEST_PAUSE_MS}.
   */
  protected restore(data: QuotaFile): void {
    const now = this.options.time.now();
    const latest = now + LONGEST_PAUSE_MS;
    const kept = now - REPEAT_WINDOW_MS;
    for (const [key, pause] of Object.entries(data.models)) {
      if (pause.until > kept) this.models.set(key, { ...pause, until: Math.min(pause.until, latest) });
    }
    for (const [id, pause] of Object.entries(data.providers)) {
      if (pause.until > kept) this.providers.set(id, { ...pause, until: Math.min(pause.until, latest) });
    }
    // An older file keyed a block by the provider alone; its fingerprint names the key.
    for (const [id, block] of Object.entries(data.auth)) {
      this.auth.set(id.includes(KEY_MARK) ? id : scoped(id, block.fingerprint), block);
    }
    this.changes += 1;
  }

  /**
   * A number that changes whenever a pause or an auth block is set or lifted (not when a pause simply
   * runs out) or a budget's standing changes: whatever was derived from the book without a pause in it is
   * current while it stays the same.
   */
  get version(): number {
    return this.changes + this.budgets.version;
  }

  /**
   * Pauses one model on one key for `ms`, or longer when its last pause ran out into another 429
   * (`pause-repeat.ts`): a repeat is the router's own length, never the provider's word. An existing later
   * pause is kept.
   */
  pauseModel(modelKey: string, fingerprint: string, ms: number, authoritative: boolean): void {
    const id = scoped(modelKey, fingerprint);
    const last = this.models.get(id);
    const repeat = pauseRepeat(last, this.options.time.now());
    const until = this.deadline(repeatedPauseMs(ms, repeat));
    if (until === null) return;
    const current = this.live(last);
    if (current !== undefined && current.until >= until) return;
    this.models.set(id, repeat === 1 ? { until, authoritative } : { until, authoritative: false, repeat });
    this.pausesChanged({ model: modelKey });
  }

  /**
   * Pauses every model of a provider on one key (the key's limit or credit) for `ms`; a rate limit met again
   * as its last pause ran out is a repeat, as for a model ({@link pauseModel}). An existing later pause is
   * kept.
   */
  pauseProvider(
    providerId: string,
    fingerprint: string,
    ms: number,
    reason: ProviderPauseReason,
    authoritative: boolean,
  ): void {
    const id = scoped(providerId, fingerprint);
    const last = this.providers.get(id);
    const limited = reason === 'rate_limit' && last?.reason === 'rate_limit';
    const repeat = limited ? pauseRepeat(last, this.options.time.now()) : 1;
    const until = this.deadline(repeatedPauseMs(ms, repeat));
    if (until === null) return;
    const current = this.live(last);
    if (current !== undefined && current.until >= until) return;
    this.providers.set(
      id,
      repeat === 1 ? { until, reason, authoritative } : { until, reason, authoritative: false, repeat },
    );
    this.pausesChanged({ provider: providerId });
  }

  /** The later of the model's and its provider's pause on this key still in the future, else null. */
  pausedUntil(modelKey: string, providerId: string, fingerprint: string): number | null {
    return this.pauseInfo(modelKey, providerId, fingerprint)?.until ?? null;
  }

  /** When the provider-wide pause on this key ends (its limit or credit), or null. */
  keyPausedUntil(providerId: string, fingerprint: string): number | null {
    return this.later(this.providers, providerId, fingerprint)?.until ?? null;
  }

  /** The pause that holds the model back longest on this key, with whether it may be probed early. */
  pauseInfo(modelKey: string, providerId: string, fingerprint: string): PauseInfo | null {
    const model = this.later(this.models, modelKey, fingerprint);
    const provider = this.later(this.providers, providerId, fingerprint);
    if (provider !== undefined && (model === undefined || provider.until > model.until)) {
      const { until, authoritative, reason, repeat = 1 } = provider;
      return { until, authoritative, scope: 'provider', reason, repeat };
    }
    if (model !== undefined) {
      const { until, authoritative, repeat = 1 } = model;
      return { until, authoritative, scope: 'model', reason: 'rate_limit', repeat };
    }
    return null;
  }

  /**
   * A served request or passing probe: clears the model's pause, its provider's rate-limit pause (and a
   * heuristic payment pause; kept under `account`, the provider's quota account) and the provider's auth
   * block. An authoritative 402 pause stays: one free model answering does not prove the key has credit
   * again.
   */
  clearOnSuccess(modelKey: string, providerId: string, fingerprint: string, account = providerId): void {
    // The usual case, nothing paused or blocked: no work and no allocation per served request.
    if (this.models.size === 0 && this.providers.size === 0 && this.auth.size === 0) return;
    const scope: QuotaScope = {};
    const modelIds = [scoped(modelKey, fingerprint), modelKey];
    if (modelIds.filter((id) => this.models.delete(id)).length > 0) scope.model = modelKey;
    let clearsPause = false;
    for (const id of [scoped(account, fingerprint), account]) {
      const pause = this.providers.get(id);
      if (pause !== undefined && (pause.reason === 'rate_limit' || !pause.authoritative)) {
        this.providers.delete(id);
        clearsPause = true;
      }
    }
    if (clearsPause) scope.provider = account;
    if (this.auth.delete(scoped(providerId, fingerprint))) scope.provider ??= providerId;
    if (scope.model !== undefined || scope.provider !== undefined) this.pausesChanged(scope);
  }

  /**
   * Manual reset of one model's pauses on every key, and of the rate-limit and location pauses of its
   * provider's keys (under `account`, its quota account) that hold it with every other model of the key: the
   * model's row says so, and its Reset is the way to try again now (after a change of network, say). A 402's
   * pause stays, as a success leaves it. True
   * when one of them was still running.
   */
  clearModel(modelKey: string, account?: string): boolean {
    const mine = (id: string, scope: string): boolean => id === scope || id.startsWith(scope + KEY_MARK);
    const models = [...this.models.keys()].filter((id) => mine(id, modelKey));
    const keys =
      account === undefined
        ? []
        : [...this.providers].filter(
            ([id, pause]) => mine(id, account) && pause.reason !== 'payment_required',
          );
    const lifted =
      models.some((id) => this.live(this.models.get(id)) !== undefined) ||
      keys.some(([, pause]) => this.live(pause) !== undefined);
    const scope: QuotaScope = {};
    if (models.filter((id) => this.models.delete(id)).length > 0) scope.model = modelKey;
    if (keys.filter(([id]) => this.providers.delete(id)).length > 0) scope.provider = account;
    if (scope.model !== undefined || scope.provider !== undefined) this.pausesChanged(scope);
    return lifted;
  }

  /**
   * Blocks one key of the provider after a 401/403. Takes the key's fingerprint; anything else is
   * fingerprinted here, so a key can never reach the state file.
   */
  blockAuth(providerId: string, fingerprint: string): void {
    const fp = asFingerprint(fingerprint);
    const id = scoped(providerId, fp);
    if (this.auth.has(id)) return;
    this.auth.set(id, { fingerprint: fp, at: this.options.time.now() });
    this.pausesChanged({ provider: providerId });
  }

  /** True while this key of the provider is blocked (another key, a new one, is not). */
  /** Nothing paused and no key blocked: every key stands as its budgets say (ranking's usual case). */
  isClear(): boolean {
    return this.models.size === 0 && this.providers.size === 0 && this.auth.size === 0;
  }

  isAuthBlocked(providerId: string, fingerprint: string): boolean {
    return this.auth.size > 0 && this.auth.has(scoped(providerId, asFingerprint(fingerprint)));
  }

  /** Lifts the auth blocks of every key of the provider (a passing key test, a key saved anew). */
  clearAuth(providerId: string): void {
    const prefix = providerId + KEY_MARK;
    const ids = [...this.auth.keys()].filter((id) => id.startsWith(prefix));
    if (ids.filter((id) => this.auth.delete(id)).length > 0) this.pausesChanged({ provider: providerId });
  }

  override async flush(): Promise<void> {
    await Promise.all([super.flush(), this.budgets.flush(), this.usage.flush()]);
  }

  override async close(): Promise<void> {
    await Promise.all([super.close(), this.budgets.close(), this.usage.close()]);
  }

  private deadline(ms: number): number | null {
    return Number.isFinite(ms) && ms > 0 ? this.options.time.now() + ms : null;
  }

  /** The later of the live pauses on `id` for this key and on `id` for every key (an older file's). */
  private later<P extends { until: number }>(
    map: Map<string, P>,
    id: string,
    fingerprint: string,
  ): P | undefined {
    if (map.size === 0 || !this.scopesPaused().has(id)) return undefined;
    const own = this.live(map.get(scoped(id, fingerprint)));
    const any = this.live(map.get(id));
    if (own === undefined) return any;
    return any !== undefined && any.until > own.until ? any : own;
  }

  /**
   * The scopes (model keys, accounts) any pause is kept under, expired ones included, made again after a
   * change: ranking asks about every model of a set while a few are paused, and a model with none is then
   * one lookup, not four (two to name its pause, two for its own and every key's).
   */
  private scopesPaused(): ReadonlySet<string> {
    if (this.pausedScopesAt !== this.changes) {
      this.pausedScopes = new Set([...this.models.keys(), ...this.providers.keys()].map(scopeOf));
      this.pausedScopesAt = this.changes;
    }
    return this.pausedScopes;
  }

  private live<P extends { until: number }>(pause: P | undefined): P | undefined {
    return pause !== undefined && pause.until > this.options.time.now() ? pause : undefined;
  }

  private pausesChanged(scope: QuotaScope): void {
    this.changes += 1;
    this.changed();
    this.options.onChange?.(scope);
  }

  /**
   * Pauses over for longer than a repeat's window are left out: the file holds deadlines still ahead and the
   * last pauses a 429 would repeat, so a restart does not start a misstated limit's doubling again.
   */
  protected snapshot(): QuotaFile {
    const kept = this.options.time.now() - REPEAT_WINDOW_MS;
    const ahead = <P extends { until: number }>(map: Map<string, P>): Record<string, P> =>
      Object.fromEntries([...map].filter(([, pause]) => pause.until > kept));
    return {
      models: ahead(this.models),
      providers: ahead(this.providers),
      auth: Object.fromEntries(this.auth),
    };
  }
}

/** Separates a scope from its key's fingerprint in ids (model keys and provider ids hold no space). */

/** The id of a pause or block of `scope` on the key with this fingerprint. */
const scoped = scopedId;

/** The scope of a pause's id: the id without its key's fingerprint (an older file's has none). */
function scopeOf(id: string): string {
  const mark = id.indexOf(KEY_MARK);
  return mark === -1 ? id : id.slice(0, mark);
}

function asFingerprint(value: string): string {
  return isKeyFingerprint(value) ? value : keyFingerprint(value);
}
