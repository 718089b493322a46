/**
 * A fixed-capacity ring: pushing past capacity overwrites the oldest item in O(1), where an array trimmed
 * with `splice` would move every retained item on each push.
 */
export class RingBuffer<T> {
  readonly capacity: number;
  readonly #items: (T | undefined)[];
  /** Index of the oldest item. */
  #start = 0;
  #size = 0;

  /** @param capacity at least 1 */
  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.#items = new Array<T | undefined>(this.capacity);
  }

  get size(): number {
    return this.#size;
  }

  push(item: T): void {
    if (this.#size < this.capacity) {
      this.#items[(this.#start + this.#size) % this.capacity] = item;
      this.#size += 1;
    } else {
      this.#items[this.#start] = item;
      this.#start = (this.#start + 1) % this.capacity;
    }
  }

  /** Every item, oldest first (a new array). */
  toArray(): T[] {
    return this.newest(this.#size).reverse();
  }

  /** The newest `n` items (clamped to 0..size; none for NaN), newest first. */
  newest(n: number): T[] {
    const count = Number.isNaN(n) ? 0 : Math.max(0, Math.min(this.#size, Math.floor(n)));
    const out = new Array<T>(count);
    for (let i = 0; i < count; i += 1) {
      out[i] = this.#items[(this.#start + this.#size - 1 - i) % this.capacity] as T;
    }
    return out;
  }

  /** The items newest first, read lazily (no copy: a reader that stops early pays for what it read). */
  *newestFirst(): Generator<T, void, undefined> {
    for (let i = 0; i < this.#size; i += 1) {
      yield this.#items[(this.#start + this.#size - 1 - i) % this.capacity] as T;
    }
  }

  clear(): void {
    this.#items.fill(undefined);
    this.#start = 0;
    this.#size = 0;
  }
}
