import type { RouterEvent, RouterEventType } from '../api-types.js';

type Listener = (event: RouterEvent) => void;

/**
 * The engine's typed events (`request`, `breaker`, `config`, `router`). The server's SSE route and the
 * desktop tray subscribe; the engine never knows who listens. A throwing listener cannot break routing.
 */
export class EventBus {
  readonly #listeners = new Map<RouterEventType, Set<Listener>>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  /** Subscribes to one event type; returns the unsubscribe function. */
  on<T extends RouterEventType>(
    type: T,
    listener: (event: Extract<RouterEvent, { type: T }>) => void,
  ): () => void {
    let set = this.#listeners.get(type);
    if (!set) {
      set = new Set();
      this.#listeners.set(type, set);
    }
    const wrapped = listener as Listener;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  emit(event: RouterEvent): void {
    const set = this.#listeners.get(event.type);
    if (!set) return;
    for (const listener of set) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  listenerCount(type: RouterEventType): number {
    return this.#listeners.get(type)?.size ?? 0;
  }
}
