/**
 * How each model has done lately. Its recent attempts' results and latencies, in memory only
 * (`ModelStatsBook`: a fixed-size ring per key, so memory stays bounded however long the router runs). And
 * how fast it answers, learnt from served attempts (agents' and probes'): time to the first useful byte (a
 * decaying average and a p95 over a window of recent samples) and output tokens per second
 * (`LatencyBook`, persisted, so `fastest` ordering knows the models right after a restart).
 */
import { z } from 'zod/v3';
import type { LatencyView, ModelStats } from '../api-types.js';
import { StateBook, type StateBookOptions } from './state-book.js';

/** Latencies shown in the dashboard's sparkline. */
export const SPARKLINE_POINTS = 20;
export const DEFAULT_STATS_WINDOW = 50;

class Ring {
  readonly ok: Uint8Array;
  readonly latency: Float64Array;
  /** Where the next result goes. */
  next = 0;
  size = 0;

  constructor(capacity: number) {
    this.ok = new Uint8Array(capacity);
    this.latency = new Float64Array(capacity);
  }

  push(ok: boolean, latencyMs: number): void {
    this.ok[this.next] = ok ? 1 : 0;
    this.latency[this.next] = latencyMs;
    this.next = (this.next + 1) % this.ok.length;
    this.size = Math.min(this.size + 1, this.ok.length);
  }

  /** Ring positions of the retained results, oldest first. */
  positions(): number[] {
    const start = (this.next - this.size + this.ok.length) % this.ok.length;
    return Array.from({ length: this.size }, (_, i) => (start + i) % this.ok.length);
  }
}

export class ModelStatsBook {
  private readonly window: number;
  private readonly rings = new Map<string, Ring>();

  /** @param window attempts kept per model. @default 50 */
  constructor(window: number = DEFAULT_STATS_WINDOW) {
    this.window = Math.max(1, Number.isFinite(window) ? Math.floor(window) : DEFAULT_STATS_WINDOW);
  }

  /** Records one dispatched attempt of the model. */
  record(modelKey: string, ok: boolean, latencyMs: number): void {
    let ring = this.rings.get(modelKey);
    if (ring === undefined) {
      ring = new Ring(this.window);
      this.rings.set(modelKey, ring);
    }
    ring.push(ok, Number.isFinite(latencyMs) ? Math.max(0, latencyMs) : 0);
  }

  /**
   * Stats over the window of recent attempts. The median latency is taken over successful attempts only,
   * since a fast 429 or a slow timeout says nothing about how quickly the model answers.
   */
  get(modelKey: string): ModelStats {
    const ring = this.rings.get(modelKey);
    if (ring === undefined || ring.size === 0) {
      return { attempts: 0, successes: 0, successRate: null, p50LatencyMs: null, recentLatencyMs: [] };
    }
    const positions = ring.positions();
    const okLatencies = positions.filter((i) => ring.ok[i] === 1).map((i) => ring.latency[i] ?? 0);
    return {
      attempts: ring.size,
      successes: okLatencies.length,
      successRate: okLatencies.length / ring.size,
      p50LatencyMs: percentile(okLatencies, 0.5),
      recentLatencyMs: positions.slice(-SPARKLINE_POINTS).map((i) => ring.latency[i] ?? 0),
    };
  }
}

/** Samples kept per model for the p95. */
export const LATENCY_WINDOW = 20;
/** Weight of a new sample in the decaying averages: the last handful of answers dominate. */
export const DECAY_WEIGHT = 0.3;
/** Models not served for this long are dropped on load: their figures say nothing about today. */
export const LATENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** One model's figures (what the Models view shows); null fields have no sample yet. */
export type LatencyFigures = LatencyView;

/** One served attempt's timing. */
export interface LatencySample {
  ttfbMs: number;
  /** Output tokens per second, or null when the upstream reported no usage. */
  tokensPerSec: number | null;
}

const recordSchema = z.strictObject({
  ttfbMs: z.number().min(0),
  tokensPerSec: z.number().min(0).nullable(),
  recent: z.array(z.number().min(0)).max(LATENCY_WINDOW),
  samples: z.number().int().min(1),
  lastAt: z.number().min(0),
});
type LatencyRecord = z.infer<typeof recordSchema>;

const fileSchema = z.strictObject({ models: z.record(z.string().min(1), z.unknown()) });
type LatencyFile = { models: Record<string, unknown> };

export type LatencyBookOptions = StateBookOptions;

const EMPTY: LatencyFigures = {
  ttfbMs: null,
  ttfbP50Ms: null,
  ttfbP95Ms: null,
  tokensPerSec: null,
  samples: 0,
  lastAt: null,
};

/** Per-model latency figures with a persisted file (`latency.json`). */
export class LatencyBook extends StateBook<LatencyFile> {
  readonly #records = new Map<string, LatencyRecord>();

  constructor(options: LatencyBookOptions) {
    super(options, fileSchema);
  }

  protected snapshot(): LatencyFile {
    return { models: Object.fromEntries(this.#records) };
  }

  /** Invalid or stale entries are dropped one by one. */
  protected restore(loaded: LatencyFile): void {
    const now = this.time.now();
    for (const [key, raw] of Object.entries(loaded.models)) {
      const parsed = recordSchema.safeParse(raw);
      if (parsed.success && now - parsed.data.lastAt <= LATENCY_TTL_MS) this.#records.set(key, parsed.data);
    }
  }

  /** Books one served attempt of `key`. */
  record(key: string, sample: LatencySample): void {
    const ttfb = Math.max(0, sample.ttfbMs);
    const rate = sample.tokensPerSec;
    const before = this.#records.get(key);
    if (before === undefined) {
      this.#records.set(key, {
        ttfbMs: ttfb,
        tokensPerSec: rate,
        recent: [ttfb],
        samples: 1,
        lastAt: this.time.now(),
      });
    } else {
      // Updated in place: a served request allocates no record or window of its own.
      before.ttfbMs = decay(before.ttfbMs, ttfb);
      if (rate !== null) before.tokensPerSec = decay(before.tokensPerSec, rate);
      before.recent.push(ttfb);
      if (before.recent.length > LATENCY_WINDOW) before.recent.shift();
      before.samples += 1;
      before.lastAt = this.time.now();
    }
    this.changed();
  }

  /** Books a served attempt from its timing: first useful byte, end, and the completion's token count. */
  recordServed(key: string, ttfbMs: number, totalMs: number, completionTokens: number | null): void {
    this.record(key, { ttfbMs, tokensPerSec: tokensPerSecond(completionTokens, ttfbMs, totalMs) });
  }

  /** The figures of `key` (all null before its first served attempt). */
  get(key: string): LatencyFigures {
    const rec = this.#records.get(key);
    if (rec === undefined) return EMPTY;
    return {
      ttfbMs: Math.round(rec.ttfbMs),
      ttfbP50Ms: percentile(rec.recent, 0.5),
      ttfbP95Ms: percentile(rec.recent, 0.95),
      tokensPerSec: rec.tokensPerSec === null ? null : Math.round(rec.tokensPerSec * 10) / 10,
      samples: rec.samples,
      lastAt: rec.lastAt,
    };
  }
}

function decay(average: number | null, sample: number): number {
  return average === null ? sample : average + DECAY_WEIGHT * (sample - average);
}

/**
 * The nearest-rank percentile (a value really observed: at 0.5, the lower median), or null without
 * samples.
 */
export function percentile(values: readonly number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? null;
}

/**
 * Output tokens per second of a served attempt: its completion tokens over the time from the first byte
 * to the end (the whole time for an answer that came in one piece). Null without a token count.
 */
export function tokensPerSecond(
  completionTokens: number | null,
  ttfbMs: number,
  totalMs: number,
): number | null {
  if (completionTokens === null || completionTokens <= 0) return null;
  const spanMs = totalMs > ttfbMs ? totalMs - ttfbMs : totalMs;
  return completionTokens / (Math.max(spanMs, 1) / 1000);
}
