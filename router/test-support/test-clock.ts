import type { Clock } from '../state/clock.js';

/** Epoch ms every test clock starts at (a fixed day, so nothing depends on when the suite runs). */
export const TEST_EPOCH = Date.UTC(2030, 0, 15, 12, 0, 0);

/**
 * A clock the test controls: it starts at {@link TEST_EPOCH} and moves with real time, so latencies and
 * the request budget (enforced by real timers) stay consistent, plus whatever the test adds with `advance`
 * to let cooldowns and pauses pass without waiting.
 */
export class TestClock {
  #offset = 0;
  readonly #realStart = performance.now();

  readonly now: Clock = () => Math.floor(TEST_EPOCH + this.#offset + performance.now() - this.#realStart);

  /** Jumps the clock forward. */
  advance(ms: number): void {
    this.#offset += ms;
  }
}
