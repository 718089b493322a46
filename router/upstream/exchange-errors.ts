import type { TransportFailureKind } from '../gate/failure-kinds.js';

/**
 * Why the router itself stopped an attempt: a deadline, the client's disconnect, the request's budget, a
 * hedged rival that committed first, or the router's own stop once its grace ran out.
 */
export type AbortKind = Extract<
  TransportFailureKind,
  | 'timeout'
  | 'body_timeout'
  | 'stream_stall'
  | 'client_aborted'
  | 'budget_exhausted'
  | 'hedge_lost'
  | 'router_stopping'
>;

/** The router aborted an upstream exchange on purpose (see `AbortKind`). */
export class AttemptAbort extends Error {
  readonly code = 'attempt_abort';
  constructor(readonly kind: AbortKind) {
    super(kind);
    this.name = 'AttemptAbort';
  }
}

/**
 * A throw in the router's own code while it handled an upstream exchange: a bug or an input it could not
 * handle, never the upstream's fault, so it does no health damage and answers 500 `internal_error`.
 */
export class LocalFault extends Error {
  readonly code = 'local_fault';
  constructor(readonly cause: unknown) {
    super('local fault');
    this.name = 'LocalFault';
  }
}

/** The router's own stop of an exchange. */
export function isAttemptAbort(error: unknown): error is AttemptAbort {
  return error instanceof AttemptAbort;
}

/** A fault in the router's own code. */
export function isLocalFault(error: unknown): error is LocalFault {
  return error instanceof LocalFault;
}

/**
 * A fault's stack for the log, without its message: an error's message may quote the input it choked on
 * (V8's JSON errors do), and requests carry prompts.
 */
export function faultTrace(error: unknown): string {
  const inner = error instanceof LocalFault ? error.cause : error;
  if (!(inner instanceof Error)) return `non-error value thrown (${typeof inner})`;
  const frames = (inner.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 12)
    .map((line) => line.trim());
  return [inner.name, ...frames].join(' | ');
}
