/**
 * The chaos soak's time. Its clients, the router and the chaos upstream all run in this process, and every
 * timer among them (attempt deadlines, the total budget, hedges, cooldowns and pauses, probe ticks, the
 * upstream's scripted delays, the clients' own give-up) is set on one {@link TestClock}. The clock stands
 * still while anything is happening and, once the soak has nothing left to do but wait for a timer, moves
 * to the next one due. Work takes no time on it, so what a request meets follows from the scripted delays
 * alone, however fast or loaded the machine: a good model never outlasts a deadline, a hang always does,
 * and the budget runs out only on the waits a plan scripts.
 */
import { TestClock } from '../router/test-support/test-clock.js';

/**
 * Event-loop turns with nothing seen happening before the soak counts as waiting. All its sockets are on
 * loopback in this process, where bytes written are in the other end's queue as the write returns, so a
 * step of the router (read an answer, write to the client or call the next model) shows within a few
 * turns: this is a count of turns, not a time.
 */
const QUIET_TURNS = 16;

// Kept referenced: with only unreferenced immediates pending, the loop would block waiting for I/O.
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** The soak waits on the disk (a state file being written) or on nothing at all: look again soon. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));
/** A file read or write is under way: its end is something happening, however long the disk takes. */
const diskBusy = (): boolean => process.getActiveResourcesInfo().some((name) => name.startsWith('FSReq'));

/** A clock for the soak that moves only when everything in it waits for a timer. */
export class SoakClock {
  readonly time = new TestClock();
  #activity = 0;
  #running = false;
  #loop: Promise<void> = Promise.resolve();

  /**
   * Something happened that the soak can see (a connection, a request, bytes read or written, an answer):
   * time stands still until the soak has been quiet again.
   */
  readonly touch = (): void => {
    this.#activity += 1;
  };

  /** Resolves once the clock has moved `ms` on. */
  readonly sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => this.time.setTimeout(() => resolve(), ms));

  /**
   * Starts moving time whenever the soak is quiet and `waiting()` says that everything in flight waits for
   * the clock. Quiet alone is not enough: work the soak cannot see (a parser compiled on another thread, a
   * slow disk) must never pass for waiting.
   */
  start(waiting: () => boolean): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run(waiting);
  }

  /** Stops moving time; resolves once the loop has stopped. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
  }

  async #run(waiting: () => boolean): Promise<void> {
    while (this.#running) {
      if (!(await this.#quiet())) continue;
      const due = this.time.nextDueIn();
      if (due === null || diskBusy() || !waiting()) await pause();
      else this.time.advance(due);
    }
  }

  /** True when {@link QUIET_TURNS} turns went by with nothing touched. */
  async #quiet(): Promise<boolean> {
    const seen = this.#activity;
    for (let round = 0; round < QUIET_TURNS; round += 1) {
      await turn();
      if (this.#activity !== seen || !this.#running) return false;
    }
    return true;
  }
}
