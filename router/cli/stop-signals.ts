/**
 * What each stop signal (SIGINT, SIGTERM, SIGHUP) asks of a running daemon. One Ctrl-C can reach it twice:
 * npm forwards SIGINT to the script it runs, and when `/bin/sh` is bash (macOS, Fedora, Arch) the daemon gets
 * the terminal's SIGINT as well. So a signal close behind the first is that same interrupt, and only a later
 * one means "exit now".
 */

/** How long after the first stop signal another is taken for the same interrupt, ms. */
export const SAME_INTERRUPT_MS = 1000;

/** What a stop signal asks: stop in order (the first), nothing more (the same interrupt), or exit at once. */
export type StopSignalMeaning = 'stop' | 'same_interrupt' | 'exit_now';

/**
 * What a stop signal received at `now` means, given when the first one came (`firstAt`, null for none yet).
 * Pure.
 */
export function stopSignalMeaning(firstAt: number | null, now: number): StopSignalMeaning {
  if (firstAt === null) return 'stop';
  return now - firstAt < SAME_INTERRUPT_MS ? 'same_interrupt' : 'exit_now';
}

/** The line the first signal logs: what the daemon does, and at a terminal (SIGINT), how not to wait. */
export function stoppingLine(signal: NodeJS.Signals): string {
  const line = `${signal}: finishing in-flight requests and saving state`;
  return signal === 'SIGINT' ? `${line} (press Ctrl-C again to exit now)` : line;
}
