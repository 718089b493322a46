import type uPlot from 'uplot';

/** An open y scale of a chart as uPlot would read it: its top for the data's maximum, and its ticks. */
export interface OpenScale {
  top(max: number): number;
  ticks(top: number): number[] | undefined;
}

/**
 * The scale `scale` of the options a chart was built with, and the ticks of its axis `axis` (its place in
 * `options.axes`); throws when the scale's range is fixed.
 */
export function openScale(options: uPlot.Options | undefined, scale: string, axis: number): OpenScale {
  const plot = {} as uPlot;
  const range = options?.scales?.[scale]?.range;
  if (typeof range !== 'function') throw new Error(`the scale ${scale} has a fixed range`);
  const splits = options?.axes?.[axis]?.splits;
  return {
    top: (max) => range(plot, 0, max, scale)[1] ?? Number.NaN,
    ticks: (top) => (typeof splits === 'function' ? splits(plot, axis, 0, top, 0, 0) : splits),
  };
}
