import type { AttemptView, BreakerStateName, SkipView, UsageView } from '../api-types.js';
import type { Classification } from '../gate/failure-classifier.js';
import type { RequestOutcome } from '../gate/failure-kinds.js';
import { formatDecision } from './decision-header.js';

/** Why an attempt was made: its place in the order, a trial, the panic try, the last resort, a pin. */
export type Role = AttemptView['role'];

/** The attempt running now, as the trace knows it before its verdict. */
interface Running {
  model: string;
  role: Role;
  breakerBefore: BreakerStateName;
  /** The upstream status the answer was committed with, once it was. */
  committedStatus: number | null;
}

/**
 * What one request has done so far: its attempts and skips, the attempt running now and whether the answer
 * was committed to it, and the bookkeeping deferred to the request's end. Headers and history are read
 * from here.
 */
export class RequestTrace {
  readonly attempts: AttemptView[] = [];
  readonly skips: SkipView[] = [];
  readonly failures: Classification[] = [];
  readonly tried = new Set<string>();
  /** Keys (`keyId`) refused earlier in this request. */
  readonly refusedKeys = new Set<string>();
  /** Network errors are booked at the end: if every attempt failed that way across providers, the user is offline. */
  readonly deferredNetwork: { key: string; role: Role }[] = [];
  lastResortUsed = false;
  usage: UsageView | null = null;
  #running: Running | null = null;
  #served: string | null = null;

  constructor(readonly requestId: string) {}

  /** The model the answer was committed to (its first byte went out), or null. */
  get served(): string | null {
    return this.#served;
  }

  /** An attempt on `model` starts. */
  begin(model: string, role: Role, breakerBefore: BreakerStateName): void {
    this.tried.add(model);
    this.#running = { model, role, breakerBefore, committedStatus: null };
  }

  /** The answer commits to the running attempt, whose upstream answered `status`. */
  commit(status: number): void {
    const running = this.#running;
    if (running === null || this.#served !== null) return;
    running.committedStatus = status;
    this.#served = running.model;
  }

  /** The running attempt has its verdict. */
  finish(view: AttemptView): void {
    this.attempts.push(view);
    this.#running = null;
  }

  /** Attempts for the headers: the finished ones, and the committed one still running (it serves). */
  attemptsSoFar(): readonly AttemptView[] {
    const running = this.#running;
    if (running === null || running.committedStatus === null) return this.attempts;
    const { model, role, breakerBefore, committedStatus } = running;
    return [
      ...this.attempts,
      { model, status: committedStatus, kind: null, latencyMs: 0, breakerBefore, role },
    ];
  }
}

/** The decision headers every answer of every face carries. */
export type DecisionHeaders = Readonly<Record<string, string>>;

/**
 * The decision headers of an answer with `outcome`, as the trace stands: the one place they are built,
 * refusals before routing included (an empty trace).
 */
export function decisionHeaders(trace: RequestTrace, outcome: RequestOutcome): DecisionHeaders {
  const attempts = trace.attemptsSoFar();
  const served = trace.served;
  const headers: Record<string, string> = {
    'x-request-id': trace.requestId,
    'x-fcm-v2-model': served ?? attempts.at(-1)?.model ?? 'none',
    'x-fcm-v2-attempts': String(attempts.length),
    'x-fcm-v2-decision': formatDecision(served, outcome, attempts, trace.skips.length),
  };
  if (trace.lastResortUsed) headers['x-fcm-v2-last-resort'] = 'true';
  return Object.freeze(headers);
}
