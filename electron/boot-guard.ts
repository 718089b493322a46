/**
 * What happens when the desktop app cannot start. A boot that throws must not leave a process with no tray
 * and no window holding the single-instance lock (every later launch would then do nothing): the failure
 * is logged, shown in a dialog, the lock is released and the app exits non-zero.
 */

/** The steps of ending a failed boot, each an Electron call in main. */
export interface BootFailureSteps {
  log(line: string): void;
  /** `dialog.showErrorBox(title, content)` */
  showError(title: string, content: string): void;
  /** `app.releaseSingleInstanceLock()` */
  releaseLock(): void;
  /** `app.exit(code)` */
  exit(code: number): void;
}

/** The lines the user and the log get for a failed boot. */
export function describeBootFailure(error: unknown): { logLine: string; title: string; content: string } {
  const message = error instanceof Error ? error.message : String(error);
  const detail = error instanceof Error && error.stack ? error.stack : message;
  return {
    logLine: `fcm-router: the desktop app could not start: ${detail}`,
    title: 'fcm-router could not start',
    content: `${message}\n\nThe app will now close. Start it from a terminal to see its log, or run the router on its own with \`fcm-router daemon\`.`,
  };
}

/**
 * Ends a failed boot: log, dialog, lock, exit 1. The lock is released and the exit happens even when the
 * log or the dialog throws (a display that is gone cannot show a dialog either).
 */
export function endFailedBoot(error: unknown, steps: BootFailureSteps): void {
  const failure = describeBootFailure(error);
  try {
    steps.log(failure.logLine);
    steps.showError(failure.title, failure.content);
  } catch {
    // Nothing more can be said; ending matters more.
  } finally {
    try {
      steps.releaseLock();
    } finally {
      steps.exit(1);
    }
  }
}

/**
 * Runs `boot` once the app is ready; a rejection of either ends the app through `fail`. Unlike
 * `ready.then(boot, onError)`, a throw inside `boot` is not lost.
 */
export function bootWhenReady(
  ready: Promise<unknown>,
  boot: () => Promise<void>,
  fail: (error: unknown) => void,
): Promise<void> {
  return ready.then(boot).catch(fail);
}
