/**
 * Delay before reconnect attempt `attempt` (1, 2, …): 1 s doubling up to 30 s, with ±20% jitter so
 * several open dashboards do not reconnect in lockstep after a daemon restart.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
