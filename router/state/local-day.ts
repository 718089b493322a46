/**
 * The user's calendar day, as the dashboard's "today" means it: request counters and token usage are kept
 * per local day (free-tier budgets count in each provider's own day instead, see budget-standing.ts).
 */

/** `YYYY-MM-DD` of the local calendar day holding `ms`. */
export function localDayKey(ms: number): string {
  // Every finished request asks; the answer changes at local midnight.
  if (ms >= lastLocalDay.from && ms < lastLocalDay.until) return lastLocalDay.key;
  const day = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const key = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  const from = new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
  const until = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime();
  lastLocalDay = { from, until, key };
  return key;
}

let lastLocalDay = { from: 0, until: 0, key: '' };
