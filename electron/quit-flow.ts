/** @default 10_000: how long a quit waits for requests still in flight before the router stops. */
export const QUIT_GRACE_MS = 10_000;
/**
 * @default 1000: the same when the session ends. Long enough for answers already on their way out to be
 * recorded, short next to the few seconds an OS allows before it ends the process.
 */
export const SESSION_END_GRACE_MS = 1000;

export interface QuitFlowOptions {
  /**
   * Stops what the app runs: its own router (in-flight requests get `graceMs`, then state is written) or
   * the connection to an attached daemon.
   */
  stop(graceMs: number): Promise<void>;
  /** After the stop: removes the tray and asks Electron to quit again, which now goes through. */
  finish(): void;
  logError(line: string): void;
  graceMs?: number;
  sessionEndGraceMs?: number;
}

/** An event whose default action a listener may cancel (Electron's `before-quit`, `shutdown`). */
export interface CancellableEvent {
  preventDefault(): void;
}

/**
 * The app's way out. Electron's `before-quit` is held (its default prevented) until the router has stopped
 * and written its state, then the quit is let through. When the session ends or the system shuts down,
 * there is little time: in-flight requests get a short grace before the state is written. Electron-free; main wires
 * `before-quit`, `powerMonitor` `shutdown` and the session watcher's `query-session-end` / `session-end` to it.
 */
export class QuitFlow {
  #phase: 'running' | 'stopping' | 'done' = 'running';
  #urgent = false;

  constructor(private readonly options: QuitFlowOptions) {}

  get phase(): 'running' | 'stopping' | 'done' {
    return this.#phase;
  }

  /** The user's session is ending: the coming quit writes state soon (a quit already stopping goes on). */
  sessionEnding(): void {
    this.#urgent = true;
  }

  /** Handles Electron's `before-quit`. */
  beforeQuit(event: CancellableEvent): void {
    if (this.#phase === 'done') return;
    event.preventDefault();
    if (this.#phase === 'stopping') return;
    this.#phase = 'stopping';
    const graceMs = this.#urgent
      ? (this.options.sessionEndGraceMs ?? SESSION_END_GRACE_MS)
      : (this.options.graceMs ?? QUIT_GRACE_MS);
    void this.options
      .stop(graceMs)
      .catch((error: unknown) => this.options.logError(`fcm-router: error while stopping: ${String(error)}`))
      .finally(() => {
        this.#phase = 'done';
        this.options.finish();
      });
  }
}

/**
 * Cancels the default of an event Electron passes untyped: `powerMonitor`'s `shutdown` carries an event whose
 * `preventDefault()` delays the system shutdown until the app has quit (Linux, macOS).
 */
export function delayDefault(event: unknown): void {
  if (typeof event === 'object' && event !== null && 'preventDefault' in event) {
    const cancel = (event as { preventDefault: unknown }).preventDefault;
    if (typeof cancel === 'function') cancel.call(event);
  }
}

/**
 * True where the end of the user's session reaches an app only through a window's `query-session-end` /
 * `session-end` (Windows), so the app keeps a hidden window to hear it even when no dashboard was opened.
 */
export function needsSessionWatcher(platform: NodeJS.Platform): boolean {
  return platform === 'win32';
}
