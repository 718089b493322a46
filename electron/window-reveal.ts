import type { Time, TimerHandle } from '../router/index.js';

/** @default 3000: how long a window waits for its first paint before it is shown anyway. */
export const REVEAL_FALLBACK_MS = 3000;

/**
 * When the dashboard window becomes visible. Electron paints a new window's first frame after `show()`
 * only if `show()` waits for `ready-to-show`; shown earlier, the user sees a blank (white) window. So a
 * request to show a window that has not painted yet is held until it has, and a window that never paints
 * (a dashboard that hangs) is shown after a bound anyway.
 */
export class RevealGate {
  #painted = false;
  #fallback: TimerHandle | null = null;

  constructor(
    private readonly reveal: () => void,
    private readonly time: Time,
    private readonly fallbackMs = REVEAL_FALLBACK_MS,
  ) {}

  /** The user asked to see the window. */
  request(): void {
    if (this.#painted) return this.reveal();
    this.#fallback ??= this.time.setTimeout(() => this.#open(), this.fallbackMs);
  }

  /** `ready-to-show`: the first frame is painted. Shows the window if it was asked for meanwhile. */
  painted(): void {
    if (this.#painted) return;
    this.#painted = true;
    if (this.#fallback !== null) this.#open();
  }

  /** The window is gone: nothing more to show. */
  dispose(): void {
    this.time.clearTimeout(this.#fallback);
    this.#fallback = null;
  }

  #open(): void {
    this.dispose();
    this.#painted = true;
    this.reveal();
  }
}
