import type { HistoryEntry } from '../../api-types.js';
import { logText } from './log-text.js';

/**
 * One log line per finished request: routing metadata only (never prompt, completion, key or URL); model
 * names are the agent's or a config's text, escaped ({@link logText}).
 * e.g. `req-1a2b served 200 fcm → demo-fast/coder 2 attempts 412ms [demo-flaky/empty-200:empty_choices] opencode/1.2`
 */
export function requestLogLine(entry: HistoryEntry): string {
  // Built by concatenation: one line per request, no intermediate arrays.
  const count = entry.attempts.length;
  let line = `${entry.requestId} ${entry.outcome} ${entry.clientStatus} ${logText(entry.modelRequested)} → ${logText(
    entry.servedModel ?? 'none',
  )} ${count} attempt${count === 1 ? '' : 's'} ${entry.wallMs}ms`;
  if (entry.stream) line += ' stream';
  let failed = '';
  for (const attempt of entry.attempts) {
    if (attempt.kind === null) continue;
    const what = attempt.status !== null && attempt.status >= 300 ? attempt.status : attempt.kind;
    failed += `${failed === '' ? '' : ' '}${logText(attempt.model)}:${what}`;
  }
  if (failed !== '') line += ` [${failed}]`;
  if (entry.skipped.length > 0) line += ` skips=${entry.skipped.length}`;
  if (entry.lastResortUsed) line += ' last-resort';
  if (entry.client) line += ` ${entry.client}`;
  return line;
}
