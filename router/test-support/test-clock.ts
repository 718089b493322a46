import type { Clock, Time, TimerHandle } from '../state/clock.js';

/** Epoch ms every test clock starts at (a fixed day, so nothing depends on when the suite runs). */
export const TEST_EPOCH = Date.UTC(2030, 0, 15, 12, 0, 0);

interface FakeTimer {
  at: number;
  /** The period of an interval; null for a timeout. */
  every: number | null;
  callback: () => void;
}

/**
 * Time the test moves by hand, the default of the router test harnesses: the clock stands still until
 * `advance` (or `set`), which runs every timer that falls due on the way, in order, each with the clock at
 * its due time. Nothing waits on the wall clock, so a test reads the same on a loaded machine: a test that
 * needs a deadline to pass waits for the event that armed it (the upstream saw the call, say), then
 * advances.
 */
export class TestClock implements Time {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, FakeTimer>();

  constructor(start: number = TEST_EPOCH) {
    this.#now = start;
  }

  readonly now: Clock = () => this.#now;

  readonly setTimeout = (callback: () => void, ms: number): TimerHandle => this.#add(callback, ms, null);

  readonly setInterval = (callback: () => void, ms: number): TimerHandle =>
    this.#add(callback, ms, Math.max(1, ms));

  readonly clearTimeout = (handle: TimerHandle | null): void => {
    if (handle !== null) this.#timers.delete(handle as unknown as number);
  };

  readonly clearInterval = this.clearTimeout;

  /** Moves the clock forward `ms`, running the timers due on the way (those they set included). */
  advance(ms: number): void {
    const end = this.#now + Math.max(0, ms);
    for (let due = this.#nextDue(end); due !== null; due = this.#nextDue(end)) this.#run(due);
    this.#now = end;
  }

  /**
   * As `advance`, but lets promise continuations and I/O callbacks already queued run before each timer
   * fires, so a timer set after an await in the code under test is due in the same window.
   */
  async advanceSettling(ms: number): Promise<void> {
    const end = this.#now + Math.max(0, ms);
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const due = this.#nextDue(end);
      if (due === null) break;
      this.#run(due);
    }
    this.#now = end;
  }

  /** Sets the clock to `at`: forward as `advance`; backward (a clock put back) runs no timer. */
  set(at: number): void {
    if (at >= this.#now) this.advance(at - this.#now);
    else this.#now = at;
  }

  /** How many timers are set. */
  pending(): number {
    return this.#timers.size;
  }

  /** Milliseconds until the next timer is due, or null with none set. */
  nextDueIn(): number | null {
    const next = this.#nextDue(Infinity);
    return next === null ? null : Math.max(0, next[1].at - this.#now);
  }

  #add(callback: () => void, ms: number, every: number | null): TimerHandle {
    const id = this.#nextId++;
    const delay = Number.isFinite(ms) ? Math.max(0, ms) : 0;
    this.#timers.set(id, { at: this.#now + delay, every, callback });
    return id as unknown as TimerHandle;
  }

  /** The earliest timer due by `end` (the first set among equals). */
  #nextDue(end: number): [number, FakeTimer] | null {
    let best: [number, FakeTimer] | null = null;
    for (const entry of this.#timers) {
      if (entry[1].at <= end && (best === null || entry[1].at < best[1].at)) best = entry;
    }
    return best;
  }

  #run([id, timer]: [number, FakeTimer]): void {
    this.#now = Math.max(this.#now, timer.at);
    if (timer.every === null) this.#timers.delete(id);
    else timer.at += timer.every;
    timer.callback();
  }
}
