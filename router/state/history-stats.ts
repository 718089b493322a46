import type { HistoryEntry, HistoryStats } from '../api-types.js';

/** Local midnight of the day holding `now`, in the process's time zone. */
export function startOfLocalDay(now: number): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** Whether an entry is an agent's request (entries recorded before sources were carry none). */
export function isAgentEntry(entry: Pick<HistoryEntry, 'source'>): boolean {
  return entry.source === undefined || entry.source === 'agent';
}

/**
 * Summarises the retained history. Only agent requests count: a dashboard test or a probe says how one
 * model answered a fixed question, not how agents were served. Client aborts are kept out of the success
 * rate (the agent gave up; no model failed), and `today` counts entries at or after `startOfToday`.
 */
export function computeHistoryStats(
  entries: readonly HistoryEntry[],
  _now: number,
  startOfToday: number,
): HistoryStats {
  const stats: HistoryStats = {
    retained: entries.length,
    tests: 0,
    served: 0,
    partial: 0,
    allFailed: 0,
    noCandidates: 0,
    clientAborted: 0,
    rejected: 0,
    failoverRate: 0,
    successRate: 0,
    avgAttempts: 0,
    avgWallMs: 0,
    today: { servedFirstTry: 0, servedAfterFailover: 0, failed: 0, promptTokens: 0, completionTokens: 0 },
  };
  let servedAfterFailover = 0;
  let attempts = 0;
  let wallMs = 0;
  for (const entry of entries) {
    if (!isAgentEntry(entry)) {
      stats.tests += 1;
      continue;
    }
    attempts += entry.attempts.length;
    wallMs += entry.wallMs;
    const failedOver = entry.attempts.length > 1;
    const today = entry.at >= startOfToday;
    if (today && entry.usage) {
      stats.today.promptTokens += entry.usage.promptTokens ?? 0;
      stats.today.completionTokens += entry.usage.completionTokens ?? 0;
    }
    switch (entry.outcome) {
      case 'served':
        stats.served += 1;
        if (failedOver) servedAfterFailover += 1;
        if (today && failedOver) stats.today.servedAfterFailover += 1;
        if (today && !failedOver) stats.today.servedFirstTry += 1;
        break;
      case 'partial':
        stats.partial += 1;
        if (today) stats.today.failed += 1;
        break;
      // A local fault failed the request as surely as its models did.
      case 'internal_error':
      case 'all_failed':
        stats.allFailed += 1;
        if (today) stats.today.failed += 1;
        break;
      case 'no_candidates':
        stats.noCandidates += 1;
        if (today) stats.today.failed += 1;
        break;
      case 'client_aborted':
        stats.clientAborted += 1;
        break;
      case 'rejected':
        stats.rejected += 1;
        break;
    }
  }
  const agents = entries.length - stats.tests;
  const counted = agents - stats.clientAborted;
  stats.successRate = counted > 0 ? stats.served / counted : 0;
  stats.failoverRate = stats.served > 0 ? servedAfterFailover / stats.served : 0;
  stats.avgAttempts = agents > 0 ? attempts / agents : 0;
  stats.avgWallMs = agents > 0 ? wallMs / agents : 0;
  return stats;
}
