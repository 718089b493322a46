/**
 * Tick labels of a chart's time axis, written as the tables write times: `15:40` within a day, `2026-11-03`
 * for days (local time). uPlot's own labels (`3:45pm`, `12/3/26`) follow neither.
 */
import { formatHourMinute } from './format.js';

const DAY_SECONDS = 86_400;

/** A local date as `YYYY-MM-DD`. */
function isoDay(at: number): string {
  const d = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Labels for `ticks` (Unix seconds) spaced `incrSeconds` apart: dates when the ticks are a day or more
 * apart, else hours and minutes.
 *
 * @example timeTickLabels([1_700_000_000], 600) // ['23:13'] in UTC
 */
export function timeTickLabels(ticks: readonly number[], incrSeconds: number): string[] {
  return ticks.map((tick) =>
    incrSeconds >= DAY_SECONDS ? isoDay(tick * 1000) : formatHourMinute(tick * 1000),
  );
}

/** Pixels a `2026-11-03` label takes at the charts' 11 px, with a gap to the next. */
const DATE_LABEL_SPACE = 90;
/** Pixels a `15:40` label takes, with a gap. */
const CLOCK_LABEL_SPACE = 60;

/**
 * The least room between a time axis's ticks for a span of `fromSeconds` to `toSeconds`: dates are labelled
 * once the span reaches two days (uPlot picks day ticks from there) and need half as much room again as
 * clock times, or they run into each other.
 *
 * @example timeTickSpace(0, 30 * 86_400) // 90
 */
export function timeTickSpace(fromSeconds: number, toSeconds: number): number {
  return toSeconds - fromSeconds >= 2 * DAY_SECONDS ? DATE_LABEL_SPACE : CLOCK_LABEL_SPACE;
}
