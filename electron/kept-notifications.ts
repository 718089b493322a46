/**
 * Electron holds a shown `Notification` only weakly: once the app drops its own reference, a garbage
 * collection takes it and its `click` handler never runs (electron/electron#16922). Shown notifications are
 * therefore kept here until they are clicked, closed or failed, with a cap so that notifications the OS
 * never reports back about cannot pile up.
 */

/** The part of Electron's Notification this needs. */
export interface ShownNotification {
  once(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
}

/** @default 20 kept at most; the oldest is let go first. */
export const MAX_KEPT_NOTIFICATIONS = 20;

export class KeptNotifications<N extends ShownNotification> {
  readonly #kept = new Set<N>();

  constructor(private readonly max = MAX_KEPT_NOTIFICATIONS) {}

  /** Keeps `notification` until it is clicked, closed or failed. */
  keep(notification: N): void {
    const release = (): void => void this.#kept.delete(notification);
    for (const event of ['click', 'close', 'failed'] as const) notification.once(event, release);
    this.#kept.add(notification);
    // A Set iterates in insertion order: the first one is the oldest.
    for (const oldest of this.#kept) {
      if (this.#kept.size <= this.max) break;
      this.#kept.delete(oldest);
    }
  }

  get size(): number {
    return this.#kept.size;
  }

  has(notification: N): boolean {
    return this.#kept.has(notification);
  }
}
