/** Something with a deadline on the monotonic clock (`performance.now()` milliseconds). */
export interface Deadlined {
  /** When it is due; may move later at any time without telling the watch (it is read when the timer fires). */
  readonly dueAt: number;
  /** Called once `dueAt` has passed; the item is no longer watched then. */
  onDue(now: number): void;
}

/**
 * One timer for many deadlines. Every attempt has a deadline, almost always later than the earliest one
 * already armed, so watching it costs a Set insertion rather than a timer created and cleared per attempt
 * (Node creates and drops a whole timer list each time when requests run one at a time). Deadlines that
 * moved later are simply found not due when the timer fires; it then re-arms for the earliest left. The
 * timer is unref'd: what keeps the process alive is the attempt's socket, never its deadline.
 */
export class DeadlineWatch {
  readonly #items = new Set<Deadlined>();
  readonly #now: () => number;
  #timer: NodeJS.Timeout | null = null;
  #armedAt = Infinity;
  readonly #onTimer = (): void => this.#fire();

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Starts watching `item`, or takes note that its deadline moved earlier. */
  watch(item: Deadlined): void {
    this.#items.add(item);
    if (item.dueAt < this.#armedAt) this.#arm(item.dueAt);
  }

  unwatch(item: Deadlined): void {
    this.#items.delete(item);
  }

  /** Items watched now. */
  get size(): number {
    return this.#items.size;
  }

  #arm(at: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#armedAt = at;
    if (at === Infinity) {
      this.#timer = null;
      return;
    }
    this.#timer = setTimeout(this.#onTimer, Math.max(0, Math.ceil(at - this.#now())));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = null;
    this.#armedAt = Infinity;
    const now = this.#now();
    let next = Infinity;
    for (const item of this.#items) {
      if (item.dueAt <= now) {
        this.#items.delete(item);
        item.onDue(now);
      } else if (item.dueAt < next) next = item.dueAt;
    }
    // An item re-watched from onDue has armed the timer already if it is the earliest.
    if (next < this.#armedAt) this.#arm(next);
  }
}

/** The watch every upstream attempt uses. */
export const attemptDeadlines = new DeadlineWatch();
