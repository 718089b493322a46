import type { HistoryEntry } from '../api-types.js';
import type { MetricSample } from './metrics-text.js';

/** Counts by a few label values; the map key joins them, so counting one is a single lookup. */
class LabelledCounts {
  readonly #counts = new Map<string, { labels: Record<string, string>; value: number }>();

  constructor(private readonly labelNames: readonly string[]) {}

  add(values: readonly string[], by: number): void {
    const id = values.join('\u0000');
    const row = this.#counts.get(id);
    if (row) {
      row.value += by;
      return;
    }
    const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? '']));
    this.#counts.set(id, { labels, value: by });
  }

  /** Every counted label set, in label-value order (stable output for a scraper and a diff). */
  samples(): MetricSample[] {
    return [...this.#counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => ({ labels: { ...row.labels }, value: row.value }));
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
