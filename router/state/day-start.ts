/**
 * Where a provider's day starts: daily limits reset at midnight in the provider's time zone (an IANA name;
 * UTC unless the catalogue or the config says otherwise). Google AI Studio, for one, resets at midnight
 * Pacific time, so counting its day in UTC would open a fresh budget eight hours before Google does.
 *
 * The day is the span from one local midnight to the next: on the day clocks go forward it lasts 23 hours
 * and on the day they go back 25 (in America/Los_Angeles 2030-03-10 runs 08:00 UTC → 07:00 UTC the next
 * day, 2030-11-03 runs 07:00 UTC → 08:00 UTC the next day); the day's counts cover the whole of it and
 * reset at the next local midnight. In a zone that skips midnight itself, the day starts at the first
 * instant that has its date (01:00 local, say).
 *
 * Ranking asks this for every model on every request: each zone keeps one formatter and the last day found,
 * so dates are formatted only when `now` leaves that day (once a day per zone), and UTC needs no formatting.
 */

const HOUR_MS = 3_600_000;
/** A day without a clock change (UTC's every day). */
export const DAY_MS = 24 * HOUR_MS;
/** Offsets from UTC lie within -12 h and +14 h: a date's first instant lies within 15 h of its UTC midnight. */
const OFFSET_BOUND_MS = 15 * HOUR_MS;

export const UTC_ZONE = 'UTC';

/** One day in a zone: from its first instant (`start`) up to the next day's (`end`). */
export interface DayWindow {
  readonly start: number;
  readonly end: number;
}

interface ZoneEntry {
  /** Null for UTC: its dates need no formatting. */
  readonly format: Intl.DateTimeFormat | null;
  /** The last day asked for. */
  window: DayWindow | null;
}

const zones = new Map<string, ZoneEntry>();

/** True when `zone` is a time zone this runtime knows (an IANA name such as `America/Los_Angeles`, or `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The day in `zone` that contains `now`. `zone` must be a time zone ({@link isTimeZone}): the config and the
 * catalogue are checked before they reach here.
 * @example dayWindow(Date.UTC(2030, 0, 16, 0, 30), 'America/Los_Angeles')
 *   // { start: Date.UTC(2030, 0, 15, 8), end: Date.UTC(2030, 0, 16, 8) }
 */
export function dayWindow(now: number, zone: string): DayWindow {
  const entry = zoneEntry(zone);
  const cached = entry.window;
  if (cached !== null && now >= cached.start && now < cached.end) return cached;
  const window = entry.format === null ? utcDay(now) : zonedDay(entry.format, now);
  entry.window = window;
  return window;
}

function zoneEntry(zone: string): ZoneEntry {
  let entry = zones.get(zone);
  if (entry === undefined) {
    const format =
      zone === UTC_ZONE
        ? null
        : new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
          });
    entry = { format, window: null };
    zones.set(zone, entry);
  }
  return entry;
}

function utcDay(now: number): DayWindow {
  const start = now - (now % DAY_MS);
  return { start, end: start + DAY_MS };
}

function zonedDay(format: Intl.DateTimeFormat, now: number): DayWindow {
  const date = localDate(format, now);
  return { start: firstInstantOf(format, date), end: firstInstantOf(format, date + DAY_MS) };
}

/** The local date of `at`, as the UTC midnight of that date (so dates compare as numbers). */
function localDate(format: Intl.DateTimeFormat, at: number): number {
  let year = 0;
  let month = 0;
  let day = 0;
  for (const part of format.formatToParts(at)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
  }
  return Date.UTC(year, month - 1, day);
}

/**
 * The first instant whose local date is `date` or later, to the millisecond: a bisection over the 30 hours
 * it must lie in (about 27 formats, once per zone and day), which needs no knowledge of the zone's rules and
 * so also finds a day that starts after a skipped midnight.
 */
function firstInstantOf(format: Intl.DateTimeFormat, date: number): number {
  let before = date - OFFSET_BOUND_MS;
  let from = date + OFFSET_BOUND_MS;
  while (from - before > 1) {
    const middle = Math.floor((before + from) / 2);
    if (localDate(format, middle) >= date) from = middle;
    else before = middle;
  }
  return from;
}
