/**
 * The Usage view's numbers: requests or tokens per kept day, as one series in all or split by provider,
 * model or key (the largest few, the rest summed as "other"), every day from the oldest kept to today. Pure.
 */
import type { UsageEntryView, UsageResponse } from '../../../router/api-types.js';

export type UsageSplit = 'total' | 'provider' | 'model' | 'key';
export type UsageMeasure = 'requests' | 'tokens';

export interface DaySeries {
  name: string;
  /** One value per day of `days`. */
  values: number[];
}

export interface DailyUsage {
  /** `YYYY-MM-DD`, oldest first, without gaps. */
  days: string[];
  series: DaySeries[];
  /** Per day, all series together. */
  totals: number[];
}

/** How many series a chart shows before the rest are summed as "other". */
export const MAX_SERIES = 6;

function groupOf(entry: UsageEntryView, split: UsageSplit): string {
  const provider = entry.model.split('/')[0] ?? entry.model;
  if (split === 'provider') return provider;
  if (split === 'model') return entry.model;
  if (split === 'key') return `${provider} · ${entry.key === '' ? 'no key' : entry.key}`;
  return 'all';
}

function amount(entry: UsageEntryView, measure: UsageMeasure): number {
  return measure === 'requests' ? entry.requests : entry.promptTokens + entry.completionTokens;
}

/** `day` moved by `count` days (calendar arithmetic without time zones). */
function addDays(day: string, count: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + count)).toISOString().slice(0, 10);
}

/**
 * Every day of the kept span ending `today` (`keptDays` of them), reaching further back when an older day is
 * kept (a clock moved back), or on to the newest kept day when it is after `today`.
 */
export function dayRange(usage: Pick<UsageResponse, 'days' | 'keptDays'>, today: string): string[] {
  const kept = usage.days.map((d) => d.day).sort();
  const first = [kept[0] ?? today, addDays(today, 1 - Math.max(1, usage.keptDays))].sort()[0] ?? today;
  const last = [kept.at(-1) ?? today, today].sort()[1] ?? today;
  const days: string[] = [];
  for (let day = first; day <= last && days.length < 400; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Requests or tokens per day, split as asked; the largest `max` series kept, the others as "other". */
export function dailyUsage(
  usage: Pick<UsageResponse, 'days' | 'keptDays'>,
  options: { split: UsageSplit; measure: UsageMeasure; today: string; max?: number },
): DailyUsage {
  const days = dayRange(usage, options.today);
  const index = new Map(days.map((day, i) => [day, i]));
  const groups = new Map<string, number[]>();
  for (const day of usage.days) {
    const at = index.get(day.day);
    if (at === undefined) continue;
    for (const entry of day.entries) {
      const name = groupOf(entry, options.split);
      const values = groups.get(name) ?? days.map(() => 0);
      values[at] = (values[at] ?? 0) + amount(entry, options.measure);
      groups.set(name, values);
    }
  }
  const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
  const ranked = [...groups.entries()]
    .map(([name, values]) => ({ name, values }))
    .sort((a, b) => sum(b.values) - sum(a.values) || a.name.localeCompare(b.name));
  const max = options.max ?? MAX_SERIES;
  const series = ranked.length > max ? ranked.slice(0, max - 1) : ranked;
  if (ranked.length > max) {
    const rest = ranked.slice(max - 1);
    series.push({
      name: `other (${rest.length})`,
      values: days.map((_, i) => sum(rest.map((s) => s.values[i] ?? 0))),
    });
  }
  const totals = days.map((_, i) => sum(series.map((s) => s.values[i] ?? 0)));
  return { days, series, totals };
}

/** A day's local midnight in epoch seconds, for the chart's time axis. */
export function dayStartSeconds(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).getTime() / 1000;
}

/** The user's calendar day of `at` (`YYYY-MM-DD`, local time), as the router keys its usage days. */
export function localDay(at: number): string {
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
