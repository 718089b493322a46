/**
 * Keys removed from the config over the API, held in memory for a short while so the dashboard can undo
 * the removal without ever having the key: it names the key by fingerprint and the router puts it back.
 * Never written to disk or logged; bounded in count and time.
 */
import type { Clock } from './clock.js';
import { scopedId } from './scoped-id.js';

/** How long a removed key can be put back. */
export const HOLD_MS = 60_000;
/** At most this many removed keys are held; the oldest goes first. */
export const MAX_HELD = 20;

/** One removed key: its value, its place among the provider's keys, and the address it was meant for. */
export interface HeldKey {
  value: string;
  index: number;
  /** The provider's `baseUrl` in the config when the key was removed (a key only goes back to it). */
  baseUrl: string | undefined;
  /** The provider's custom headers then, each value a digest: the values may hold secrets. */
  headerDigests: Record<string, string>;
}

interface Entry extends HeldKey {
  until: number;
}

export class HeldKeys {
  readonly #held = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly holdMs: number = HOLD_MS,
  ) {}

  /** Holds `key` of `provider` (by its fingerprint) until {@link HOLD_MS} from now. */
  hold(provider: string, fingerprint: string, key: HeldKey): void {
    this.#prune();
    const id = scopedId(provider, fingerprint);
    this.#held.delete(id);
    this.#held.set(id, { ...key, until: this.clock() + this.holdMs });
    for (const oldest of this.#held.keys()) {
      if (this.#held.size <= MAX_HELD) break;
      this.#held.delete(oldest);
    }
  }

  /** Takes the held key of `provider` with `fingerprint` (it is held no longer), or null when none is. */
  take(provider: string, fingerprint: string): HeldKey | null {
    this.#prune();
    const id = scopedId(provider, fingerprint);
    const entry = this.#held.get(id);
    if (entry === undefined) return null;
    this.#held.delete(id);
    const { value, index, baseUrl, headerDigests } = entry;
    return { value, index, baseUrl, headerDigests };
  }

  #prune(): void {
    const now = this.clock();
    for (const [id, entry] of this.#held) if (entry.until <= now) this.#held.delete(id);
  }
}
