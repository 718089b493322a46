import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisTicks, axisTop } from '../lib/axis-scale.js';
import { timeTickLabels, timeTickSpace } from '../lib/time-axis.js';
import { cssVar, useColorScheme } from '../lib/use-color-scheme.js';

export interface LineSeries {
  label: string;
  values: (number | null)[];
  /** A CSS custom property holding the colour, e.g. `--state-closed`. */
  colour: string;
  /** Which y axis: the left one (`y`) or the right one (`y2`). */
  scale: 'y' | 'y2';
  dashed?: boolean;
}

export interface AxisSpec {
  label: string;
  format(value: number): string;
  /** A fixed range, else from zero to a round top above the data's maximum (at least `minTop`). */
  range?: [number, number];
  /** The lowest top of an open range, so a flat or empty series still gets readable ticks. @default 1 */
  minTop?: number;
}

export interface LineChartProps {
  /** Bucket times in epoch seconds. */
  t: number[];
  series: LineSeries[];
  left: AxisSpec;
  right?: AxisSpec;
  height?: number;
  /** The label under the time axis. @default none */
  timeLabel?: string;
  /** What the chart shows, for screen readers. */
  summary: string;
}

function options(width: number, props: LineChartProps): uPlot.Options {
  const grid = { stroke: cssVar('--border'), width: 1 };
  const axis = {
    stroke: cssVar('--muted'),
    grid,
    ticks: { show: false },
    font: '11px system-ui, sans-serif',
    labelFont: '11px system-ui, sans-serif',
    labelSize: 16,
  };
  const range = (spec: AxisSpec): uPlot.Scale['range'] =>
    spec.range ?? ((_u, _min, max) => [0, axisTop(max, spec.minTop)]);
  // An open range's ticks end at its top, so the highest line is labelled; a fixed range keeps uPlot's.
  const splits = (spec: AxisSpec): Pick<uPlot.Axis, 'splits'> =>
    spec.range ? {} : { splits: (_u, _axis, _min, max) => axisTicks(max) };
  const scales: uPlot.Scales = { x: { time: true }, y: { range: range(props.left) } };
  const axes: uPlot.Axis[] = [
    {
      ...axis,
      space: (_u, _axis, from, to) => timeTickSpace(from, to),
      values: (_u, ticks, _axis, _space, incr) => timeTickLabels(ticks, incr),
      ...(props.timeLabel ? { label: props.timeLabel } : {}),
    },
    {
      ...axis,
      scale: 'y',
      size: 50,
      label: props.left.label,
      values: (_u, ticks) => ticks.map(props.left.format),
      ...splits(props.left),
    },
  ];
  if (props.right) {
    scales.y2 = { range: range(props.right) };
    const right = props.right;
    axes.push({
      ...axis,
      scale: 'y2',
      side: 1,
      size: 46,
      grid: { show: false },
      label: right.label,
      values: (_u, ticks) => ticks.map(right.format),
      ...splits(right),
    });
  }
  return {
    width,
    height: props.height ?? 160,
    // Without a right axis uPlot leaves half a y axis's width there, too little for the last date's label
    // (centred on its tick): room for half of `2026-12-04`. Null is uPlot's own padding.
    padding: [null, props.right ? null : 40, null, null],
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 5 } },
    scales,
    axes,
    series: [
      {},
      ...props.series.map((s) => ({
        label: s.label,
        scale: s.scale,
        stroke: cssVar(s.colour),
        width: 2,
        dash: s.dashed ? [5, 4] : undefined,
        spanGaps: true,
        points: { size: 4 },
      })),
    ],
  };
}

const aligned = (props: LineChartProps): uPlot.AlignedData => [props.t, ...props.series.map((s) => s.values)];

/** Lines over time with labelled axes (uPlot); rebuilt when the colour scheme flips. */
export function LineChart(props: LineChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(props);
  const scheme = useColorScheme();
  const height = props.height ?? 160;

  useEffect(() => {
    latest.current = props;
    plot.current?.setData(aligned(props));
  }, [props]);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const made = new uPlot(options(el.clientWidth || 600, latest.current), aligned(latest.current), el);
    plot.current = made;
    const resize = new ResizeObserver(() => made.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      made.destroy();
      plot.current = null;
    };
  }, [scheme, height]);

  const axes = `axes: ${props.timeLabel ?? 'time'}; ${props.left.label}${props.right ? `; ${props.right.label}` : ''}`;
  return <div className="chart chart-lines" ref={box} role="img" aria-label={`${props.summary} (${axes})`} />;
}
