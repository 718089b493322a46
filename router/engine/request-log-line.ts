import type { HistoryEntry } from '../api-types.js';

/**
 * One log line per finished request: routing metadata only (never prompt, completion, key or URL).
 * e.g. `req-1a2b served 200 fcm → demo-fast/coder 2 attempts 412ms [demo-flaky/empty-200:empty_choices] opencode/1.2`
 */
export function requestLogLine(entry: HistoryEntry): string {
  const failed = entry.attempts
    .filter((attempt) => attempt.kind !== null)
    .map(
      (attempt) =>
        `${attempt.model}:${attempt.status !== null && attempt.status >= 300 ? attempt.status : attempt.kind}`,
    );
  const parts = [
    entry.requestId,
    entry.outcome,
    String(entry.clientStatus),
    `${entry.modelRequested} → ${entry.servedModel ?? 'none'}`,
    `${entry.attempts.length} attempt${entry.attempts.length === 1 ? '' : 's'}`,
    `${entry.wallMs}ms`,
  ];
  if (entry.stream) parts.push('stream');
  if (failed.length > 0) parts.push(`[${failed.join(' ')}]`);
  if (entry.skipped.length > 0) parts.push(`skips=${entry.skipped.length}`);
  if (entry.lastResortUsed) parts.push('last-resort');
  if (entry.client) parts.push(entry.client);
  return parts.join(' ');
}
