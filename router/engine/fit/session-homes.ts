/**
 * Where each agent conversation lives: the model that served its last turn. A conversation kept on one model
 * keeps the provider's prompt cache and the model's tool-call habits; ranking tries that model first while
 * it is routable and the request fits it. In memory only, bounded: a session idle for an hour is forgotten,
 * and past the cap the longest idle goes first. Sessions are known by a short hash of their id.
 */
import type { Clock } from '../../state/clock.js';

/** A session not seen for this long starts again at the top of its set. */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** Sessions kept at most. */
export const MAX_SESSIONS = 5000;

interface Home {
  model: string;
  seenAt: number;
}

export class SessionHomes {
  /** Least recently seen first (a Map keeps insertion order: a session seen again is moved to the end). */
  readonly #homes = new Map<string, Home>();

  constructor(
    private readonly clock: Clock,
    private readonly max = MAX_SESSIONS,
  ) {}

  /** The model `session` was last served by, or null (unknown, or idle for too long). */
  home(session: string): string | null {
    const home = this.#homes.get(session);
    if (home === undefined) return null;
    if (this.clock() - home.seenAt >= SESSION_IDLE_MS) {
      this.#homes.delete(session);
      return null;
    }
    return home.model;
  }

  /** `model` served a turn of `session`: it is the session's home from now on. */
  served(session: string, model: string): void {
    const now = this.clock();
    this.#homes.delete(session);
    this.#homes.set(session, { model, seenAt: now });
    this.#evict(now);
  }

  /** Sessions kept now. */
  get size(): number {
    return this.#homes.size;
  }

  /** Drops idle sessions from the oldest end, then the oldest while over the cap. */
  #evict(now: number): void {
    for (const [session, home] of this.#homes) {
      if (this.#homes.size <= this.max && now - home.seenAt < SESSION_IDLE_MS) break;
      this.#homes.delete(session);
    }
  }
}
