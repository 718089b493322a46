/** Display formatting for times, durations and numbers. Pure; locale-independent where it matters. */

/** A countdown or uptime: `42 s`, `3:07`, `1 h 05 m`, `2 d 4 h`. Negative values count as zero. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes < 60) return `${minutes}:${String(seconds).padStart(2, '0')}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} m`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A span with its units spelt out, for uptime: `42 s`, `3 min 09 s`, `1 h 05 min`, `2 d 4 h`. */
export function formatUptime(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A count with its noun, singular for one: `1 model`, `0 models`, `20 models`. */
export function countOf(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** Names as words: `A`, `A and B`, `A, B and C`. */
export function wordList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A token count: `950`, `12.4k`, `3.2M`. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${+(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${+(count / 1_000_000).toFixed(1)}M`;
}

/** A rate such as tokens a second: a decimal below 10, whole above (`4.2`, `3354`); `–` when unknown. */
export function formatRate(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return '–';
  return rate < 10 ? rate.toFixed(1) : String(Math.round(rate));
}

/** A latency: `812 ms`, `1.24 s`, `35 s`. */
export function formatLatency(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.round(ms / 1000)} s`;
}

/** A share 0..1 as a whole percentage, or a dash without data. */
export function formatPercent(share: number | null): string {
  if (share === null || !Number.isFinite(share)) return '–';
  return `${Math.round(share * 100)}%`;
}

/** Local wall-clock time of an epoch-ms instant, `HH:MM:SS`. */
export function formatClock(at: number): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Local wall-clock time of an epoch-ms instant, `HH:MM`. */
export function formatHourMinute(at: number): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** A config value for people: `30000` ms becomes `30 s`, bytes become KiB/MiB. */
export function humanizeUnit(value: number, unit: 'ms' | 'bytes'): string {
  if (unit === 'bytes') {
    if (value >= 1024 * 1024) return `${+(value / 1024 / 1024).toFixed(2)} MiB`;
    if (value >= 1024) return `${+(value / 1024).toFixed(1)} KiB`;
    return `${value} B`;
  }
  if (value >= 60_000 && value % 60_000 === 0) return `${value / 60_000} min`;
  if (value >= 1000) return `${+(value / 1000).toFixed(1)} s`;
  return `${value} ms`;
}
