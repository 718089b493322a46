import type { TransportFailureKind } from '../gate/failure-kinds.js';

type AbortKind = Extract<
  TransportFailureKind,
  'timeout' | 'body_timeout' | 'stream_stall' | 'client_aborted' | 'budget_exhausted'
>;

/**
 * The one AbortSignal of an attempt and the reason it fired. The request's deadline, the header timeout,
 * the body-read timeout, the stream idle timeout and the client's disconnect all abort the same signal, so
 * whatever phase the attempt is in (headers, body, held stream) stops at once; the first reason wins.
 */
export class AttemptSignal {
  readonly #controller = new AbortController();
  #kind: AbortKind | null = null;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #detachClient: () => void;

  constructor(clientSignal: AbortSignal) {
    const onClientAbort = (): void => this.abort('client_aborted');
    if (clientSignal.aborted) this.abort('client_aborted');
    else clientSignal.addEventListener('abort', onClientAbort, { once: true });
    this.#detachClient = () => clientSignal.removeEventListener('abort', onClientAbort);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the attempt was aborted, or null if it was not (a network error then). */
  get kind(): AbortKind | null {
    return this.#kind;
  }

  abort(kind: AbortKind): void {
    if (this.#kind) return;
    this.#kind = kind;
    this.#controller.abort(new Error(kind));
  }

  /** Starts (or restarts) a named timer that aborts with `kind` after `ms`. */
  arm(name: string, ms: number, kind: AbortKind): void {
    this.disarm(name);
    const timer = setTimeout(() => this.abort(kind), Math.max(0, ms));
    this.#timers.set(name, timer);
  }

  /** Pushes a running timer's deadline back to its full length (cheap: no new timer per chunk). */
  refresh(name: string): void {
    this.#timers.get(name)?.refresh();
  }

  disarm(name: string): void {
    const timer = this.#timers.get(name);
    if (timer) clearTimeout(timer);
    this.#timers.delete(name);
  }

  /** Clears every timer and the client listener. */
  dispose(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#detachClient();
  }
}
