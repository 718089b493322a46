import type { RouterLogger } from '../public-types.js';
import { faultTrace } from '../upstream/exchange-errors.js';

/** The exit status of a daemon that stopped on a fault of its own (BSD's EX_SOFTWARE). */
export const FAULT_EXIT_CODE = 70;

/** What the policy needs of `process`. */
export interface FaultSource {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown;
}

export interface ProcessErrorPolicyOptions {
  source: FaultSource;
  logger: RouterLogger;
  /** Saves state and closes the server (the router's `stop`). */
  flush: () => Promise<void>;
  exit: (code: number) => void;
}

/**
 * The daemon's answer to a throw nobody caught: log it (stack only: a message may quote a prompt), flush
 * state, exit with status 70. Faults inside a request are contained there (500 `internal_error`); one that
 * reaches the process escaped every such boundary, and Node cannot vouch for the process's state after it,
 * so serving on could route on broken breakers or lose writes quietly. Exiting loudly with state saved lets
 * whoever started the daemon (the desktop app, a service manager, the user) start a clean one. A second
 * fault while flushing exits at once.
 */
export function installProcessErrorPolicy(options: ProcessErrorPolicyOptions): void {
  let flushing = false;
  const onFault = (origin: string) => (error: unknown) => {
    options.logger.error(`${origin}: ${faultTrace(error)}`);
    if (flushing) return options.exit(FAULT_EXIT_CODE);
    flushing = true;
    options.logger.error('stopping after a fault the router could not contain; state is being saved');
    options.flush().then(
      () => options.exit(FAULT_EXIT_CODE),
      () => options.exit(FAULT_EXIT_CODE),
    );
  };
  options.source.on('uncaughtException', onFault('uncaught exception'));
  options.source.on('unhandledRejection', onFault('unhandled rejection'));
}
