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

/** A least-squares line through `points`: `y = intercept + slope * x`. NaN for fewer than two distinct x. */
export function linearFit(points: readonly { x: number; y: number }[]): { slope: number; intercept: number } {
  const n = points.length;
  let sx = 0;
  let sy = 0;
  for (const p of points) {
    sx += p.x;
    sy += p.y;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  if (n < 2 || sxx === 0) return { slope: Number.NaN, intercept: Number.NaN };
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}
