/**
 * The client's side of one chat request: whether it went away, and who to tell when it does. Lighter than
 * an AbortController (no EventTarget, no AbortSignal per request); an attempt watches it while it runs.
 */
export class ClientGone {
  #gone = false;
  readonly #listeners: (() => void)[] = [];

  /** True once the client disconnected before its answer was complete. */
  get gone(): boolean {
    return this.#gone;
  }

  /** Calls `listener` once when the client goes (never if it already went: check `gone` first). */
  watch(listener: () => void): void {
    this.#listeners.push(listener);
  }

  unwatch(listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
  }

  /** Marks the client gone and tells every watcher. */
  markGone(): void {
    if (this.#gone) return;
    this.#gone = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}
