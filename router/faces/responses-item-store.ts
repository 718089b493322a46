/**
 * The output items of recent Responses answers, kept so a later request may refer to them by
 * `{"type": "item_reference", "id": …}` (the AI SDK's `openai.responses()` does by default). They are what
 * the model said — prompt and completion content — so they live in memory only: never logged, never
 * persisted, never in history, traces or events, and gone on restart.
 *
 * Bounded three ways: a count of items, a total size in characters, and an age counted from when the item
 * was last kept or referred to (a conversation in use keeps its items; one left alone lets them go). The
 * least recently used items go first.
 */
import type { Clock } from '../state/clock.js';

/** An item as it goes back into a request's `input`: the input-item form of what the answer held. */
export type KeptItem =
  | { type: 'message'; role: 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; namespace?: string; arguments: string }
  | { type: 'custom_tool_call'; call_id: string; name: string; namespace?: string; input: string }
  /** Earlier reasoning is never sent upstream, so only its id is kept (a reference to it must resolve). */
  | { type: 'reasoning' };

/** One kept item and its id (`msg_…`, `fc_…`, `ctc_…`, `rs_…`). */
export interface KeptOutput {
  id: string;
  item: KeptItem;
}

/** What translation reads from the store. */
export interface ItemLookup {
  /** The item with this id, or undefined when it is not held (never was, evicted, or expired). */
  find(id: string): KeptItem | undefined;
}

export interface ItemStoreLimits {
  /** Most items held. */
  maxItems: number;
  /** Most characters held, over every item's text, arguments and names. */
  maxChars: number;
  /** An item neither kept nor referred to for this long is forgotten. */
  maxIdleMs: number;
}

export const DEFAULT_ITEM_STORE_LIMITS: ItemStoreLimits = {
  maxItems: 5000,
  maxChars: 8 * 1024 * 1024,
  maxIdleMs: 2 * 60 * 60 * 1000,
};

interface Entry {
  item: KeptItem;
  chars: number;
  usedAt: number;
}

/** An item's size as counted against `maxChars` (its id and a little for the object itself included). */
export function itemChars(output: KeptOutput): number {
  const { item } = output;
  if (item.type === 'message') return output.id.length + item.content.length + 32;
  if (item.type === 'reasoning') return output.id.length + 32;
  const body = item.type === 'function_call' ? item.arguments : item.input;
  const naming = item.call_id.length + item.name.length + (item.namespace?.length ?? 0);
  return output.id.length + naming + body.length + 32;
}

/** The router's kept items; one per router, on its clock. */
export class ResponseItemStore implements ItemLookup {
  readonly #clock: Clock;
  readonly #limits: ItemStoreLimits;
  /** In order of last use, least recent first. */
  readonly #entries = new Map<string, Entry>();
  #chars = 0;

  constructor(options: { clock: Clock; limits?: Partial<ItemStoreLimits> }) {
    this.#clock = options.clock;
    this.#limits = { ...DEFAULT_ITEM_STORE_LIMITS, ...options.limits };
  }

  /** How many items are held. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many characters are held. */
  get chars(): number {
    return this.#chars;
  }

  /** Keeps an answer's items (an item id seen again replaces the older one). */
  keep(outputs: readonly KeptOutput[]): void {
    const now = this.#clock();
    for (const output of outputs) {
      const chars = itemChars(output);
      // One item bigger than the whole store would only push everything else out, then itself.
      if (chars > this.#limits.maxChars) continue;
      this.#drop(output.id);
      this.#entries.set(output.id, { item: output.item, chars, usedAt: now });
      this.#chars += chars;
    }
    this.#prune(now);
  }

  /** The item with this id; referring to it restarts its age. */
  find(id: string): KeptItem | undefined {
    const now = this.#clock();
    this.#prune(now);
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    this.#entries.set(id, { ...entry, usedAt: now });
    return entry.item;
  }

  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#chars -= entry.chars;
  }

  /** Drops the least recently used items while any bound is exceeded or the oldest has idled too long. */
  #prune(now: number): void {
    const { maxItems, maxChars, maxIdleMs } = this.#limits;
    for (const [id, entry] of this.#entries) {
      const over = this.#entries.size > maxItems || this.#chars > maxChars;
      if (!over && now - entry.usedAt < maxIdleMs) return;
      this.#drop(id);
    }
  }
}
