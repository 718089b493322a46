/**
 * The app's ways out, wired: the user quits (tray, Cmd+Q, a signal), the system shuts down or the session
 * ends. Electron-free: main passes the Electron objects as the small interfaces below, and the decisions
 * are QuitFlow's (quit-flow.ts).
 */
import { delayDefault, QuitFlow, type CancellableEvent } from './quit-flow.js';

/** The part of Electron's `app` the way out listens to. */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: CancellableEvent) => void): unknown;
  on(event: 'window-all-closed' | 'second-instance' | 'activate', listener: () => void): unknown;
  quit(): void;
}

export interface QuitWiringDeps {
  app: QuitApp;
  /** Electron's `powerMonitor`: `shutdown` on Linux and macOS. */
  powerMonitor: { on(event: 'shutdown', listener: (...args: unknown[]) => void): unknown };
  /** The process, for SIGINT and SIGTERM. */
  signals: { on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown };
  /** Stops what the app runs (its own router gets `graceMs` for requests in flight). */
  stop(graceMs: number): Promise<void>;
  /** A quit began: the dashboard window may close now (until then closing only hides it). */
  allowWindowClose(): void;
  /** Another launch of the app, or a click on its dock icon: show the dashboard. */
  openDashboard(): void;
  logError(line: string): void;
}

export interface QuitWiring {
  /** The session ends or the system shuts down: quit now, with a short grace for requests in flight. */
  endSession(): void;
  /** Runs `close` once the router has stopped, just before the app quits (the tray, a hidden window). */
  closeOnQuit(close: () => void): void;
}

/**
 * Wires the ways out: `before-quit` is held until the router has stopped and written its state, the
 * system's `shutdown` is delayed the same way, SIGINT and SIGTERM quit, closing the last window does not
 * (the app lives in the tray), and another launch shows the dashboard.
 */
export function wireQuit(deps: QuitWiringDeps): QuitWiring {
  const { app } = deps;
  const closers: (() => void)[] = [];
  const quitFlow = new QuitFlow({
    stop: (graceMs) => deps.stop(graceMs),
    finish: () => {
      for (const close of closers) close();
      app.quit();
    },
    logError: deps.logError,
  });
  const endSession = (): void => {
    quitFlow.sessionEnding();
    app.quit();
  };
  app.on('before-quit', (event) => {
    deps.allowWindowClose();
    quitFlow.beforeQuit(event);
  });
  // Linux and macOS: the system is going down; its event's default is delayed until the app has quit.
  deps.powerMonitor.on('shutdown', (...args) => {
    delayDefault(args[0]);
    endSession();
  });
  app.on('window-all-closed', () => undefined);
  app.on('second-instance', () => deps.openDashboard());
  app.on('activate', () => deps.openDashboard());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) deps.signals.on(signal, () => app.quit());
  return { endSession, closeOnQuit: (close) => void closers.push(close) };
}
