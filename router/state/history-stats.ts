import type { HistoryEntry, HistoryStats } from '../api-types.js';

/** The history's own figures: every stat but today's counts. */
export type RetainedStats = Omit<HistoryStats, 'today'>;

/** Whether an entry is an agent's request (entries recorded before sources were carry none). */
export function isAgentEntry(entry: Pick<HistoryEntry, 'source'>): boolean {
  return entry.source === undefined || entry.source === 'agent';
}

/**
 * Summarises the retained history. Only agent requests count: a dashboard test or a probe says how one
 * model answered a fixed question, not how agents were served. Client aborts and refusals are kept out of
 * the success rate (the agent gave up, or no model was asked: a pause, an unknown model name). Today's counts are not the retained history's: the day's
 * counters (daily-counters.ts) count every request.
 */
export function computeHistoryStats(entries: readonly HistoryEntry[]): RetainedStats {
  const stats: RetainedStats = {
    retained: entries.length,
    tests: 0,
    probes: 0,
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
  };
  let servedAfterFailover = 0;
  let attempts = 0;
  let wallMs = 0;
  for (const entry of entries) {
    if (!isAgentEntry(entry)) {
      stats.tests += 1;
      if (entry.source === 'probe') stats.probes += 1;
      continue;
    }
    attempts += entry.attempts.length;
    wallMs += entry.wallMs;
    const failedOver = entry.attempts.length > 1;
    switch (entry.outcome) {
      case 'served':
        stats.served += 1;
        if (failedOver) servedAfterFailover += 1;
        break;
      case 'partial':
        stats.partial += 1;
        break;
      // A local fault failed the request as surely as its models did.
      case 'internal_error':
      case 'all_failed':
        stats.allFailed += 1;
        break;
      case 'no_candidates':
        stats.noCandidates += 1;
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
  const counted = agents - stats.clientAborted - stats.rejected;
  stats.successRate = counted > 0 ? stats.served / counted : 0;
  stats.failoverRate = stats.served > 0 ? servedAfterFailover / stats.served : 0;
  stats.avgAttempts = agents > 0 ? attempts / agents : 0;
  stats.avgWallMs = agents > 0 ? wallMs / agents : 0;
  return stats;
}
