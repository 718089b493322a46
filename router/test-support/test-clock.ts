import type { Clock } from '../state/clock.js';

/** Epoch ms every test clock starts at (a fixed day, so nothing depends on when the suite runs). */
export const TEST_EPOCH = Date.UTC(2030, 0, 15, 12, 0, 0);

export interface TestClockOptions {
  /**
   * Move only with `advance`, never with real time: for tests that also drive timers with node:test's
   * mock timers, so every time the router reads is the one the test set. @default false
   */
  frozen?: boolean;
}

/**
 * A clock the test controls: it starts at {@link TEST_EPOCH} and moves with real time, so latencies and
 * the request budget (enforced by real timers) stay consistent, plus whatever the test adds with `advance`
 * to let cooldowns and pauses pass without waiting. A frozen clock moves with `advance` alone.
 */
export class TestClock {
  #offset = 0;
  readonly #realStart = performance.now();
  readonly #frozen: boolean;

  constructor(options: TestClockOptions = {}) {
    this.#frozen = options.frozen ?? false;
  }

  readonly now: Clock = () =>
    Math.floor(TEST_EPOCH + this.#offset + (this.#frozen ? 0 : performance.now() - this.#realStart));

  /** Jumps the clock forward. */
  advance(ms: number): void {
    this.#offset += ms;
  }
}
