import { logText } from '../engine/views/log-text.js';
import type { RouterLogger } from '../public-types.js';
import { systemTime, type Time, type TimerHandle } from '../state/clock.js';

export interface BufferedLogger extends RouterLogger {
  /** Writes whatever is buffered now. */
  flush(): void;
}

/** Where the log goes: a stream, whose `error` event is listened to when it has one (`process.stdout`). */
export interface LogStream {
  write(text: string): unknown;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * A writer that goes quiet for good once its stream failed (a closed pipe, a full disk), thrown or
 * emitted: the log is not worth the router, and an `error` event nobody listens to would end the process.
 */
function guardedWriter(stream: LogStream, onFail: (error: unknown) => void): (text: string) => void {
  let failed = false;
  const fail = (error: unknown): void => {
    if (failed) return;
    failed = true;
    onFail(error);
  };
  stream.on?.('error', fail);
  return (text) => {
    if (failed) return;
    try {
      stream.write(text);
    } catch (error) {
      fail(error);
    }
  };
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'write failed';
}

/**
 * `HH:MM:SS` in local time, formatted once per second: the formatting (and the Date behind it) is the costly
 * part of a log line.
 */
function secondStamp(): (nowMs: number) => string {
  let second = Number.NaN;
  let text = '';
  return (nowMs) => {
    const current = Math.floor(nowMs / 1000);
    if (current !== second) {
      second = current;
      text = new Date(nowMs).toTimeString().slice(0, 8);
    }
    return text;
  };
}

/**
 * The daemon's log: one line per request would cost a synchronous write each on the hot path (stdout to a
 * file or pipe blocks), so info lines are gathered and written at most every `intervalMs` or once 32 KB
 * are waiting (`intervalMs`, default 50, on `time`). Warnings and errors go out at once. No line carries a
 * control character ({@link logText}). A stream that fails is written no more; a failed `out` is said once on
 * `err`, and the router goes on serving either way.
 */
export function createBufferedLogger(
  out: LogStream,
  err: LogStream,
  options: { intervalMs?: number; time?: Time } = {},
): BufferedLogger {
  const intervalMs = options.intervalMs ?? 50;
  const time = options.time ?? systemTime;
  const stamp = secondStamp();
  const writeErr = guardedWriter(err, () => undefined);
  const writeOut = guardedWriter(out, (error) =>
    writeErr(
      `${stamp(time.now())} warn: the log output failed (${errorCode(error)}): request lines are no longer written; routing goes on\n`,
    ),
  );
  let pending: string[] = [];
  let size = 0;
  let timer: TimerHandle | null = null;
  const flush = (): void => {
    time.clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    writeOut(text);
  };
  return {
    info(line) {
      const text = `${stamp(time.now())} ${logText(line)}\n`;
      pending.push(text);
      size += text.length;
      if (size >= 32 * 1024) flush();
      else if (!timer) timer = time.setTimeout(flush, intervalMs);
    },
    warn(line) {
      flush();
      writeErr(`${stamp(time.now())} warn: ${logText(line)}\n`);
    },
    error(line) {
      flush();
      writeErr(`${stamp(time.now())} error: ${logText(line)}\n`);
    },
    flush,
  };
}
