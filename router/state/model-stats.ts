/**
 * Recent attempt results per model, in memory only: a fixed-size ring per key, so memory stays bounded
 * however long the router runs.
 */
import type { ModelStats } from '../api-types.js';

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
      p50LatencyMs: median(okLatencies),
      recentLatencyMs: positions.slice(-SPARKLINE_POINTS).map((i) => ring.latency[i] ?? 0),
    };
  }
}

/** The lower median (a latency that was really observed), or null without data. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1] ?? null;
}
