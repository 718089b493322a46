/**
 * What the router logs of a request: text from outside (a requested model name, a path) made safe for a log
 * line (control characters, since CR and LF would forge lines and ESC would drive the terminal, C1
 * controls, line separators and bidi overrides are written as `\xNN` / `\uNNNN` escapes), and the one line
 * per finished request. Pure.
 */
import type { HistoryEntry } from '../../api-types.js';

/** A character a log line must not carry as it is. */
function isUnsafe(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function escaped(code: number): string {
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with what a log line must not carry escaped; the usual clean text is returned as it is.
 * @example logText('a\r\nb\u001b[31m') // 'a\\x0d\\x0ab\\x1b[31m'
 */
export function logText(text: string): string {
  let clean = 0;
  while (clean < text.length && !isUnsafe(text.charCodeAt(clean))) clean += 1;
  if (clean === text.length) return text;
  let out = text.slice(0, clean);
  for (let i = clean; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    out += isUnsafe(code) ? escaped(code) : text[i];
  }
  return out;
}

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
  const refusal = entry.refusal;
  if (refusal !== undefined)
    line += ` ${logText(refusal.code)}${refusal.param === undefined ? '' : `@${logText(refusal.param)}`}`;
  if (entry.client) line += ` ${entry.client}`;
  return line;
}
