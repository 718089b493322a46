import { logText } from '../engine/views/log-text.js';
import type { RouterLogger } from '../public-types.js';
import { systemTime, type Time, type TimerHandle } from '../state/clock.js';

export interface BufferedLogger extends RouterLogger {
  /** Writes whatever is buffered now. */
  flush(): void;
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
 * control character ({@link logText}).
 */
export function createBufferedLogger(
  out: { write(text: string): unknown },
  err: { write(text: string): unknown },
  options: { intervalMs?: number; time?: Time } = {},
): BufferedLogger {
  const intervalMs = options.intervalMs ?? 50;
  const time = options.time ?? systemTime;
  const stamp = secondStamp();
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
    out.write(text);
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
      err.write(`${stamp(time.now())} warn: ${logText(line)}\n`);
    },
    error(line) {
      flush();
      err.write(`${stamp(time.now())} error: ${logText(line)}\n`);
    },
    flush,
  };
}
