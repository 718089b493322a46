/**
 * A rate limit that outlasts its pause: a model (or, for a limit of the whole key, the key) that meets a 429
 * again as soon as its pause runs out, with no success in between, is paused twice as long each time (up to
 * 15 minutes), so a limit the provider misstates (a daily quota spent, with `retry in 30s`) costs a few
 * attempts an hour, not one every pause. Pure.
 */

/** A 429 this soon after the last pause of the same model and key ran out repeats it. */
export const REPEAT_WINDOW_MS = 15 * 60_000;
/** The longest a repeat makes a pause. */
export const LONGEST_REPEATED_PAUSE_MS = 15 * 60_000;

/** What the book keeps of a model's last pause on a key until a success clears it. */
export interface LastPause {
  until: number;
  /** 1 for a first pause, 2 for the first repeat, and so on. */
  repeat?: number | undefined;
}

/**
 * The repeat a new pause at `now` is, after `last` (undefined: none since the last success): the same as a
 * pause still running (another request's 429 in flight), one more when the last ran out within
 * {@link REPEAT_WINDOW_MS}, else 1.
 *
 * @example pauseRepeat({ until: 1_000, repeat: 2 }, 5_000) // 3
 */
export function pauseRepeat(last: LastPause | undefined, now: number): number {
  if (last === undefined) return 1;
  const repeat = last.repeat ?? 1;
  if (last.until > now) return repeat;
  return now - last.until <= REPEAT_WINDOW_MS ? repeat + 1 : 1;
}

/**
 * How long a pause asked for `ms` lasts at its `repeat`: doubled for each repeat, at most
 * {@link LONGEST_REPEATED_PAUSE_MS}, and never shorter than asked.
 *
 * @example repeatedPauseMs(30_000, 3) // 120000
 */
export function repeatedPauseMs(ms: number, repeat: number): number {
  if (repeat <= 1) return ms;
  return Math.max(ms, Math.min(ms * 2 ** (repeat - 1), LONGEST_REPEATED_PAUSE_MS));
}
