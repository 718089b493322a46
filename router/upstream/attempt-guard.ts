/**
 * What ends an attempt before its upstream does: its request ended from outside (`ClientGone`: the client
 * went away, or the stopping router cut it) and its deadlines (`AttemptGuard`, which watches both).
 */
import type { Deadlined, DeadlineWatch, WatchEntry } from './deadline-watch.js';
import { AttemptAbort, type AbortKind } from './exchange-errors.js';

export type { AbortKind } from './exchange-errors.js';

/** Who ended a request from outside its routing: its client, or the router stopping. */
export type EndedBy = Extract<AbortKind, 'client_aborted' | 'router_stopping'>;

/**
 * The outside end of one chat request: whether its client went away (or the stopping router cut it), and
 * who to tell when it does. Lighter than an AbortController (no EventTarget, no AbortSignal per request); an
 * attempt watches it while it runs. Either way nothing more is tried for the request.
 */
export class ClientGone {
  #endedBy: EndedBy | null = null;
  readonly #listeners: (() => void)[] = [];

  /** True once the client disconnected before its answer was complete, or the router cut the request. */
  get gone(): boolean {
    return this.#endedBy !== null;
  }

  /** Who ended the request (the first to do so), or null while it runs. */
  get endedBy(): EndedBy | null {
    return this.#endedBy;
  }

  /** Calls `listener` once when the request is ended (never if it already was: check `gone` first). */
  watch(listener: () => void): void {
    this.#listeners.push(listener);
  }

  unwatch(listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
  }

  /** Marks the client gone and tells every watcher. */
  markGone(): void {
    this.#end('client_aborted');
  }

  /** The router is stopping and its grace ran out: ends the request, blaming no model. */
  markStopped(): void {
    this.#end('router_stopping');
  }

  #end(by: EndedBy): void {
    if (this.#endedBy !== null) return;
    this.#endedBy = by;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}

/**
 * Asked when a phase's limit passes, before the guard aborts: a later time for the limit (the phase is
 * still alive, though nothing pushed its limit back), or null to let it abort. It may end the attempt
 * itself (then nothing is aborted).
 */
export type PhaseReprieve = (now: number) => number | null;

/** What the guard stops when a deadline passes or the client goes. */
export interface Abortable {
  abort(reason: Error): void;
}

/**
 * Every deadline of one attempt as one due time: the request's budget (until its stream's first content, a
 * forced tool call's first piece, or the commit) plus the current phase's limit (headers, body read or
 * stream idle), watched by the shared DeadlineWatch. The client's disconnect (or the stopping router's cut)
 * aborts too; the first reason wins. Moving a deadline later costs no timer work (the watch reads `dueAt`
 * when it fires), so a stream can push its idle limit on every chunk. Time is the watch's clock (the
 * engine's), so tests move it with the timers.
 */
export class AttemptGuard implements Deadlined {
  #kind: AbortKind | null = null;
  #disposed = false;
  #target: Abortable | null = null;
  readonly #watch: DeadlineWatch;
  /** The guard's place in the watch while a phase limit runs. */
  #entry: WatchEntry | null = null;
  #budgetAt: number;
  #phaseAt = Infinity;
  #phaseMs = 0;
  #phaseKind: AbortKind = 'timeout';
  #reprieve: PhaseReprieve | null = null;
  readonly #client: ClientGone;
  readonly #onClientGone = (): void => this.abort(this.#client.endedBy ?? 'client_aborted');

  constructor(client: ClientGone, budgetMs: number, watch: DeadlineWatch) {
    this.#client = client;
    this.#watch = watch;
    this.#budgetAt = watch.now() + Math.max(0, budgetMs);
    if (client.endedBy !== null) this.#kind = client.endedBy;
    else client.watch(this.#onClientGone);
  }

  /** Why the attempt was aborted, or null if it was not (a network error then). */
  get kind(): AbortKind | null {
    return this.#kind;
  }

  /** Sets what an abort stops; stops it at once if the attempt is already aborted. */
  bind(target: Abortable): void {
    this.#target = target;
    if (this.#kind) target.abort(new AttemptAbort(this.#kind));
  }

  abort(kind: AbortKind): void {
    if (this.#kind) return;
    this.#kind = kind;
    this.#unwatch();
    this.#target?.abort(new AttemptAbort(kind));
  }

  /** The earlier of the budget's and the phase's limits (read by the DeadlineWatch). */
  get dueAt(): number {
    return Math.min(this.#budgetAt, this.#phaseAt);
  }

  /** Called by the DeadlineWatch once `dueAt` has passed. */
  onDue(now: number): void {
    if (this.#kind || this.#disposed) return;
    if (now >= this.#budgetAt) return this.abort('budget_exhausted');
    if (now < this.#phaseAt) return;
    const later = this.#reprieve?.(now) ?? null;
    if (this.#kind || this.#disposed) return;
    if (later === null || later <= now) return this.abort(this.#phaseKind);
    this.#phaseAt = later;
    this.#rewatch();
  }

  /**
   * Starts a phase limit of `ms` from now that aborts with `kind` (replacing the previous phase's), unless
   * `reprieve`, asked when it passes, moves it later.
   */
  phase(kind: AbortKind, ms: number, reprieve: PhaseReprieve | null = null): void {
    this.#phaseKind = kind;
    this.#phaseMs = ms;
    this.#reprieve = reprieve;
    this.#phaseAt = this.#watch.now() + Math.max(0, ms);
    if (this.#kind || this.#disposed) return;
    this.#rewatch();
  }

  /** The time on the guard's clock (the engine's). */
  now(): number {
    return this.#watch.now();
  }

  /** Pushes the current phase's limit back to its full length (the stream idle timer on each chunk). */
  touch(): void {
    this.#phaseAt = this.#watch.now() + this.#phaseMs;
  }

  /** No phase limit until the next `phase` (headers arrived, or waiting on a slow client). */
  clearPhase(): void {
    this.#phaseAt = Infinity;
  }

  /** The budget stops at a stream's first content (or the commit): it may run as long as it keeps flowing. */
  endBudget(): void {
    this.#budgetAt = Infinity;
  }

  /** Stops the deadline and the client watch. */
  dispose(): void {
    this.#disposed = true;
    this.#unwatch();
    this.#client.unwatch(this.#onClientGone);
  }

  #rewatch(): void {
    if (this.#entry === null || !this.#entry.watched) this.#entry = this.#watch.watch(this);
    else this.#watch.moved(this.#entry);
  }

  #unwatch(): void {
    if (this.#entry !== null) this.#watch.unwatch(this.#entry);
    this.#entry = null;
  }
}
