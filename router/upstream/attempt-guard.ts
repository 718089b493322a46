import type { TransportFailureKind } from '../gate/failure-kinds.js';
import type { ClientGone } from './client-gone.js';

export type AbortKind = Extract<
  TransportFailureKind,
  'timeout' | 'body_timeout' | 'stream_stall' | 'client_aborted' | 'budget_exhausted'
>;

/** What the guard stops when a deadline passes or the client goes. */
export interface Abortable {
  abort(reason: Error): void;
}

/**
 * Every deadline of one attempt on a single timer: the request's budget (until commit) plus the current
 * phase's limit (headers, body read or stream idle). The client's disconnect aborts too; the first reason
 * wins. Moving a deadline later costs no timer work (a timer that fires early re-arms for the rest), so a
 * stream can push its idle limit on every chunk. Timing is real monotonic time, like the timers themselves.
 */
export class AttemptGuard {
  #kind: AbortKind | null = null;
  #disposed = false;
  #target: Abortable | null = null;
  #timer: NodeJS.Timeout | null = null;
  #firesAt = Infinity;
  #budgetAt: number;
  #phaseAt = Infinity;
  #phaseMs = 0;
  #phaseKind: AbortKind = 'timeout';
  readonly #client: ClientGone;
  readonly #onClientGone = (): void => this.abort('client_aborted');
  readonly #onTimer = (): void => this.#fire();

  constructor(client: ClientGone, budgetMs: number) {
    this.#client = client;
    this.#budgetAt = performance.now() + Math.max(0, budgetMs);
    if (client.gone) this.#kind = 'client_aborted';
    else client.watch(this.#onClientGone);
  }

  /** Why the attempt was aborted, or null if it was not (a network error then). */
  get kind(): AbortKind | null {
    return this.#kind;
  }

  /** Sets what an abort stops; stops it at once if the attempt is already aborted. */
  bind(target: Abortable): void {
    this.#target = target;
    if (this.#kind) target.abort(new Error(this.#kind));
  }

  abort(kind: AbortKind): void {
    if (this.#kind) return;
    this.#kind = kind;
    this.#target?.abort(new Error(kind));
  }

  /** Starts a phase limit of `ms` from now that aborts with `kind` (replacing the previous phase's). */
  phase(kind: AbortKind, ms: number): void {
    this.#phaseKind = kind;
    this.#phaseMs = ms;
    this.#phaseAt = performance.now() + Math.max(0, ms);
    this.#schedule();
  }

  /** Pushes the current phase's limit back to its full length (the stream idle timer on each chunk). */
  touch(): void {
    this.#phaseAt = performance.now() + this.#phaseMs;
  }

  /** No phase limit until the next `phase` (headers arrived, or waiting on a slow client). */
  clearPhase(): void {
    this.#phaseAt = Infinity;
  }

  /** The budget stops at commit: a served stream may run as long as it keeps flowing. */
  endBudget(): void {
    this.#budgetAt = Infinity;
  }

  /** Clears the timer and the client watch. */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#client.unwatch(this.#onClientGone);
  }

  #schedule(): void {
    const at = Math.min(this.#budgetAt, this.#phaseAt);
    if (at >= this.#firesAt || at === Infinity || this.#kind || this.#disposed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#firesAt = at;
    this.#timer = setTimeout(this.#onTimer, Math.max(0, Math.ceil(at - performance.now())));
  }

  #fire(): void {
    this.#timer = null;
    this.#firesAt = Infinity;
    const now = performance.now();
    if (now >= this.#budgetAt) this.abort('budget_exhausted');
    else if (now >= this.#phaseAt) this.abort(this.#phaseKind);
    else this.#schedule();
  }
}
