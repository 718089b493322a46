import type { HistoryEntry } from '../api-types.js';
import type { MetricSample } from './metrics-text.js';

/** One counted label set. */
interface Row {
  values: readonly string[];
  value: number;
}

/** One label's values at one depth: the next label's level under each, or the rows at the last label. */
class Level {
  readonly next = new Map<string, Level>();
  readonly rows = new Map<string, Row>();
}

/**
 * Counts by a few label values. A row is found one label at a time, through maps keyed by the values
 * themselves: counting one builds no key string (a joined key was a new string to build and hash on every
 * request).
 */
class LabelledCounts {
  readonly #root = new Level();
  readonly #rows: Row[] = [];

  constructor(private readonly labelNames: readonly string[]) {}

  add(values: readonly string[], by: number): void {
    let level = this.#root;
    const last = values.length - 1;
    for (let i = 0; i < last; i += 1) {
      const value = values[i] ?? '';
      let next = level.next.get(value);
      if (next === undefined) {
        next = new Level();
        level.next.set(value, next);
      }
      level = next;
    }
    const leaf = values[last] ?? '';
    const row = level.rows.get(leaf);
    if (row !== undefined) {
      row.value += by;
      return;
    }
    const fresh: Row = { values: [...values], value: by };
    level.rows.set(leaf, fresh);
    this.#rows.push(fresh);
  }

  /** Every counted label set, in label-value order (stable output for a scraper and a diff). */
  samples(): MetricSample[] {
    return this.#rows
      .map((row) => ({ id: row.values.join('\u0000'), row }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ row }) => ({
        labels: Object.fromEntries(this.labelNames.map((name, i) => [name, row.values[i] ?? ''])),
        value: row.value,
      }));
  }
}

/** The provider of a model key (`provider/model`). */
function providerOf(modelKey: string): string {
  const slash = modelKey.indexOf('/');
  return slash === -1 ? modelKey : modelKey.slice(0, slash);
}

/**
 * What `/metrics` counts since this router started, from each finished request's history entry (the
 * `request` event, after the answer ended: nothing on the streaming path). Constant work per attempt.
 */
export class RequestTally {
  readonly #requests = new LabelledCounts(['outcome', 'face', 'source']);
  readonly #attempts = new LabelledCounts(['kind']);
  readonly #tokens = new LabelledCounts(['provider', 'type']);

  /** Counts one finished request: its outcome, each attempt's failure kind, the tokens it was served. */
  record(entry: HistoryEntry): void {
    this.#requests.add([entry.outcome, entry.api, entry.source], 1);
    for (const attempt of entry.attempts) this.#attempts.add([attempt.kind ?? 'none'], 1);
    if (entry.servedModel === null || entry.usage === null) return;
    const provider = providerOf(entry.servedModel);
    const { promptTokens, completionTokens } = entry.usage;
    if (promptTokens !== null) this.#tokens.add([provider, 'prompt'], promptTokens);
    if (completionTokens !== null) this.#tokens.add([provider, 'completion'], completionTokens);
  }

  requests(): MetricSample[] {
    return this.#requests.samples();
  }

  attempts(): MetricSample[] {
    return this.#attempts.samples();
  }

  tokens(): MetricSample[] {
    return this.#tokens.samples();
  }
}
