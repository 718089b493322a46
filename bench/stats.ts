/** Small statistics for benchmark samples. Pure. */

/** The `q`-quantile (0..1) of `samples` by nearest rank; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The median of `samples`; NaN for none. */
export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` value), as a float. */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Rounds for display: 3 significant decimals below 10, 2 below 100, else 1. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs < 10 ? 3 : abs < 100 ? 2 : 1;
  return Number(value.toFixed(digits));
}

/**
 * The Theil–Sen line through `points`, `y = intercept + slope * x`: the slope is the median of the slopes
 * between every two points, the intercept the median of `y - slope * x`. A steady trend is recovered exactly;
 * a single step (or a few outliers) moves it far less than a least-squares line. NaN for fewer than two
 * distinct x.
 */
export function theilSenFit(points: readonly { x: number; y: number }[]): {
  slope: number;
  intercept: number;
} {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i += 1) {
    const a = points[i] as { x: number; y: number };
    for (let j = i + 1; j < points.length; j += 1) {
      const b = points[j] as { x: number; y: number };
      if (b.x !== a.x) slopes.push((b.y - a.y) / (b.x - a.x));
    }
  }
  if (slopes.length === 0) return { slope: Number.NaN, intercept: Number.NaN };
  const slope = median(slopes);
  return { slope, intercept: median(points.map((p) => p.y - slope * p.x)) };
}
