import { formatLatency } from '../lib/format.js';

/**
 * A tiny latency trend, oldest to newest, on a scale from zero to its highest value, which is written
 * beside it. An SVG polyline is all a 20-point sparkline needs; the full charts use uPlot.
 */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const width = 64;
  const height = 22;
  if (values.length < 2) return <span className="sparkline-empty muted">–</span>;
  const max = Math.max(...values, 1);
  const step = width / (values.length - 1);
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`)
    .join(' ');
  return (
    <span className="sparkline-box">
      <svg
        className="sparkline"
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-label={`${label}, from 0 to ${formatLatency(max)}`}
      >
        <polyline
          points={points}
          fill="none"
          strokeWidth="1.5"
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      </svg>
      <span className="sparkline-scale mono" aria-hidden="true">
        ≤{formatLatency(max)}
      </span>
    </span>
  );
}
