import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisTicks, axisTop } from '../lib/axis-scale.js';
import { seriesTotals, type OutcomeSeries } from '../lib/history-buckets.js';
import { OUTCOME_LABELS } from '../lib/labels.js';
import { timeTickLabels, timeTickSpace } from '../lib/time-axis.js';
import { cssVar, useColorScheme } from '../lib/use-color-scheme.js';

/**
 * Stacked bars are drawn back to front: each series is the running total up to its outcome. Empty buckets
 * are null, so no zero-height bar is stroked.
 */
function toAligned(series: OutcomeSeries): uPlot.AlignedData {
  const okAndFailover = series.firstTry.map((v, i) => v + (series.afterFailover[i] ?? 0));
  const tried = okAndFailover.map((v, i) => v + (series.failed[i] ?? 0));
  const total = tried.map((v, i) => v + (series.refused[i] ?? 0));
  const bar = (values: number[]) => values.map((v) => (v === 0 ? null : v));
  return [series.t, bar(total), bar(tried), bar(okAndFailover), bar(series.firstTry), series.failoverRate];
}

type OutcomeKey = 'firstTry' | 'afterFailover' | 'failed' | 'refused';

/** The four stacked outcomes, back to front: label, colour and the raw count shown for a bucket. */
const OUTCOME_BARS: readonly { key: OutcomeKey; label: string; colour: string }[] = [
  { key: 'refused', label: OUTCOME_LABELS.rejected, colour: '--muted' },
  { key: 'failed', label: 'failed', colour: '--state-open' },
  { key: 'afterFailover', label: 'served after failover', colour: '--state-degraded' },
  { key: 'firstTry', label: 'served first try', colour: '--state-closed' },
];

/** The time axis, the request count on the left and the failover rate on the right. */
function chartAxes(): uPlot.Axis[] {
  const axis = {
    stroke: cssVar('--muted'),
    grid: { stroke: cssVar('--border'), width: 1 },
    ticks: { show: false },
    font: '11px system-ui, sans-serif',
    labelFont: '11px system-ui, sans-serif',
    labelSize: 16,
  };
  return [
    {
      ...axis,
      space: (_u, _axis, from, to) => timeTickSpace(from, to),
      values: (_u, ticks, _axis, _space, incr) => timeTickLabels(ticks, incr),
    },
    // Ticks up to the scale's round top, so the tallest bar sits under a labelled line.
    { ...axis, scale: 'n', size: 36, label: 'requests', splits: (_u, _axis, _min, max) => axisTicks(max) },
    {
      ...axis,
      scale: '%',
      side: 1,
      size: 40,
      grid: { show: false },
      label: 'failover rate',
      values: (_u, ticks) => ticks.map((t) => `${t}%`),
    },
  ];
}

/** One outcome's bars; its value is the bucket's own count, not the running total it is drawn at. */
function outcomeSeries(bar: (typeof OUTCOME_BARS)[number], rawSeries: () => OutcomeSeries): uPlot.Series {
  return {
    label: bar.label,
    scale: 'n',
    fill: cssVar(bar.colour),
    stroke: cssVar(bar.colour),
    paths: uPlot.paths.bars?.({ size: [0.75, 24], gap: 1 }),
    points: { show: false },
    value: (_: uPlot, _v: number | null, idx: number) => String(rawSeries()[bar.key][idx] ?? 0),
  };
}

function options(width: number, rawSeries: () => OutcomeSeries): uPlot.Options {
  return {
    width,
    height: 180,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: { time: true },
      n: { range: (_u, _min, max) => [0, axisTop(max, 4)] },
      '%': { range: [0, 100] },
    },
    axes: chartAxes(),
    series: [
      {},
      ...OUTCOME_BARS.map((bar) => outcomeSeries(bar, rawSeries)),
      {
        label: 'failover rate',
        scale: '%',
        stroke: cssVar('--state-half-open'),
        width: 2,
        spanGaps: true,
        points: { size: 4 },
      },
    ],
  };
}

/** Requests of the last hour by outcome, refusals on top (stacked bars), with the failover rate (line, right axis). */
export function RequestsChart({ series }: { series: OutcomeSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(series);
  const scheme = useColorScheme();

  useEffect(() => {
    latest.current = series;
    plot.current?.setData(toAligned(series));
  }, [series]);

  // Rebuilt when the colour scheme flips: canvas colours are read from CSS once per build.
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const made = new uPlot(
      options(el.clientWidth || 600, () => latest.current),
      toAligned(latest.current),
      el,
    );
    plot.current = made;
    const resize = new ResizeObserver(() => made.setSize({ width: el.clientWidth, height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      made.destroy();
      plot.current = null;
    };
  }, [scheme]);

  const totals = seriesTotals(series);
  const summary = `Last hour: ${totals.firstTry} served first try, ${totals.afterFailover} after failover, ${totals.failed} failed, ${totals.refused} ${OUTCOME_LABELS.rejected}`;
  return <div className="chart" ref={box} role="img" aria-label={summary} />;
}
