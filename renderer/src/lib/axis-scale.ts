/**
 * The y scale of a chart whose axis starts at zero and has no fixed range: a round top above the highest
 * value, so that the top line is drawn inside the plot, and ticks that end at that top, so that the axis is
 * labelled as high as it goes.
 */

/** Room above the highest value, as a share of it. */
const HEADROOM = 0.1;
/** Most steps from zero to the top: more would crowd a chart 160 px high. */
const MOST_STEPS = 3;

/**
 * The least of 1, 2 and 5 times a power of ten that is at least `rough`, and never under 1: the charts
 * count whole milliseconds, requests and tokens.
 */
function roundStep(rough: number): number {
  if (rough <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= rough) ?? 10 * power;
}

/**
 * The top of the scale for data up to `max` (null or NaN without data): at least `minTop`, at least a tenth
 * above `max`, and a whole number of steps of {@link axisTicks}.
 *
 * @example axisTop(3050, 100) // 4000
 */
export function axisTop(max: number | null, minTop = 1): number {
  const want = Math.max(minTop, max !== null && Number.isFinite(max) ? max * (1 + HEADROOM) : 0);
  const step = roundStep(want / MOST_STEPS);
  return Math.ceil(want / step) * step;
}

/**
 * The labelled ticks from zero to `top`, a top from {@link axisTop}: two or three round steps.
 *
 * @example axisTicks(4000) // [0, 2000, 4000]
 */
export function axisTicks(top: number): number[] {
  const step = roundStep(top / MOST_STEPS);
  const ticks: number[] = [];
  for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
  return ticks;
}
