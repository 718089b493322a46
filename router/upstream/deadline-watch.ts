import type { Time, TimerHandle } from '../state/clock.js';

/** Something with a deadline on the watch's clock (milliseconds). */
export interface Deadlined {
  /** When it is due; may move later at any time without telling the watch (it is read when the timer fires). */
  readonly dueAt: number;
  /** Called once `dueAt` has passed; the item is no longer watched then. */
  onDue(now: number): void;
}

/**
 * How late the timer may fire (ms past the earliest deadline) before the watch takes it that the process was
 * held up, and reads its sockets once more before judging anything overdue. Timers fire a millisecond or two
 * late as a matter of course; a stall (a long synchronous step, a loaded or sleeping machine) makes it tens
 * of milliseconds or more.
 */
export const LATE_FIRING_MS = 20;

/** A watched item's place in the watch's list. */
export interface WatchEntry {
  readonly item: Deadlined;
  prev: WatchEntry | null;
  next: WatchEntry | null;
  watched: boolean;
}

/**
 * One timer for many deadlines. Every attempt has a deadline, almost always later than the earliest one
 * already armed, so watching it costs linking one small entry rather than a timer created and cleared per
 * attempt (Node creates and drops a whole timer list each time when requests run one at a time). The entries
 * form a linked list, not a Set: a hash table churned by every request is rebuilt again and again and keeps
 * the garbage collector busy. Deadlines that moved later are simply found not due when the timer fires; it
 * then re-arms for the earliest left. A timer that fires late (the process was held up) first lets the loop
 * read its sockets once, so an answer that arrived before its deadline is not taken for a timeout. Like every
 * timer on the injected time, it is unref'd: what keeps the process alive is the attempt's socket, never its
 * deadline.
 */
export class DeadlineWatch {
  #head: WatchEntry | null = null;
  #size = 0;
  /** The clock deadlines are read on (the engine's). */
  readonly now: () => number;
  readonly #time: Time;
  #timer: TimerHandle | null = null;
  #armedAt = Infinity;
  /** The timer fired late and gave the sockets their turn: the next firing judges. */
  #caughtUp = false;
  readonly #onTimer = (): void => this.#fire();

  /** Watches deadlines on `time` (the engine's), with its one timer set there too. */
  constructor(time: Time) {
    this.#time = time;
    this.now = time.now;
  }

  /** Starts watching `item`; returns its entry, to pass to `moved` and `unwatch`. */
  watch(item: Deadlined): WatchEntry {
    const entry: WatchEntry = { item, prev: null, next: this.#head, watched: true };
    if (this.#head !== null) this.#head.prev = entry;
    this.#head = entry;
    this.#size += 1;
    this.moved(entry);
    return entry;
  }

  /** Takes note that a watched item's deadline may have moved earlier. */
  moved(entry: WatchEntry): void {
    if (entry.watched && entry.item.dueAt < this.#armedAt) this.#arm(entry.item.dueAt);
  }

  unwatch(entry: WatchEntry): void {
    if (!entry.watched) return;
    entry.watched = false;
    if (entry.prev !== null) entry.prev.next = entry.next;
    else this.#head = entry.next;
    if (entry.next !== null) entry.next.prev = entry.prev;
    entry.prev = null;
    entry.next = null;
    this.#size -= 1;
  }

  /** Items watched now. */
  get size(): number {
    return this.#size;
  }

  #arm(at: number): void {
    this.#time.clearTimeout(this.#timer);
    this.#armedAt = at;
    if (at === Infinity) {
      this.#timer = null;
      return;
    }
    this.#timer = this.#time.setTimeout(this.#onTimer, Math.max(0, Math.ceil(at - this.now())));
  }

  #fire(): void {
    const now = this.now();
    this.#timer = null;
    if (!this.#caughtUp && now - this.#armedAt > LATE_FIRING_MS) {
      // Node runs due timers before it reads the sockets: after a stall, an answer that arrived in time is
      // still unread. A timer set now fires only after the loop has read them, so that answer is seen first.
      this.#caughtUp = true;
      this.#arm(now);
      return;
    }
    this.#caughtUp = false;
    this.#armedAt = Infinity;
    let next = Infinity;
    let entry = this.#head;
    while (entry !== null) {
      const following = entry.next;
      const { dueAt } = entry.item;
      if (dueAt <= now) {
        this.unwatch(entry);
        entry.item.onDue(now);
      } else if (dueAt < next) next = dueAt;
      entry = following;
    }
    // An item watched from onDue has armed the timer already if it is the earliest.
    if (next < this.#armedAt) this.#arm(next);
  }
}
