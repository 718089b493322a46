import type { AttemptView, BreakerStateName, SkipView, UsageView } from '../../api-types.js';
import type { Classification } from '../../gate/failure-classifier.js';
import type { RequestOutcome } from '../../gate/failure-kinds.js';
import { formatDecision, headerValue } from './decision-header.js';

/** Why an attempt was made: its place in the order, a trial, the panic try, the last resort, a pin. */
export type Role = AttemptView['role'];

/** An attempt running now, as the trace knows it before its verdict. */
interface Running {
  /** Its place in the order attempts began (history lists attempts in that order). */
  seq: number;
  model: string;
  role: Role;
  breakerBefore: BreakerStateName;
  /** The upstream status the answer was committed with, once it was. */
  committedStatus: number | null;
}

/**
 * What one request has done so far: its attempts and skips, the attempts running now (one, or two in a
 * hedged race) and which one the answer was committed to, and the bookkeeping deferred to the request's
 * end. Headers and history are read from here.
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
  /** The model the request's conversation was on, tried first (null when none was). */
  sticky: string | null = null;
  /** The largest window (or TPM limit) of the models the request was too large for, in tokens. */
  largestTooSmall: number | null = null;
  readonly #running: Running[] = [];
  /** The begin order of each finished attempt, parallel to `attempts`. */
  readonly #seqs: number[] = [];
  #nextSeq = 0;
  #served: string | null = null;

  constructor(readonly requestId: string) {}

  /** The model the answer was committed to (its first byte went out), or that continues it; or null. */
  get served(): string | null {
    return this.#served;
  }

  /** Attempts begun and not finished yet. */
  get runningCount(): number {
    return this.#running.length;
  }

  /** An attempt on `model` starts. */
  begin(model: string, role: Role, breakerBefore: BreakerStateName): void {
    this.tried.add(model);
    this.#running.push({ seq: this.#nextSeq++, model, role, breakerBefore, committedStatus: null });
  }

  /**
   * The answer commits to the running attempt on `model` (the only one running when not named), whose
   * upstream answered `status`. Only the first commit counts.
   */
  commit(status: number, model?: string): void {
    if (this.#served !== null) return;
    const running = model === undefined ? this.#running[0] : this.#running.find((r) => r.model === model);
    if (running === undefined) return;
    running.committedStatus = status;
    this.#served = running.model;
  }

  /** The continuation running on `model` sent its first content: the answer is that model's to finish. */
  continuedBy(model: string): void {
    const running = this.#running.find((r) => r.model === model);
    if (running === undefined) return;
    running.committedStatus = 200;
    this.#served = model;
  }

  /** The running attempt on `view.model` has its verdict; it takes its place in begin order. */
  finish(view: AttemptView): void {
    const index = this.#running.findIndex((running) => running.model === view.model);
    const seq = index < 0 ? this.#nextSeq++ : (this.#running[index] as Running).seq;
    if (index >= 0) this.#running.splice(index, 1);
    let at = this.attempts.length;
    while (at > 0 && (this.#seqs[at - 1] as number) > seq) at -= 1;
    this.attempts.splice(at, 0, view);
    this.#seqs.splice(at, 0, seq);
  }

  /**
   * Attempts for the headers: the finished ones, and once the answer is committed, the committed one still
   * running (it serves) and any rival still running (stopped now: it lost the hedge), in begin order.
   */
  attemptsSoFar(): readonly AttemptView[] {
    const running = this.#running;
    if (running.length === 0 || !running.some((r) => r.committedStatus !== null)) return this.attempts;
    const views = this.attempts.map((view, i) => ({ seq: this.#seqs[i] as number, view }));
    for (const { seq, model, role, breakerBefore, committedStatus } of running) {
      const kind = committedStatus === null ? 'hedge_lost' : null;
      const view: AttemptView = { model, status: committedStatus, kind, latencyMs: 0, breakerBefore, role };
      views.push({ seq, view });
    }
    return views.sort((a, b) => a.seq - b.seq).map((entry) => entry.view);
  }
}

/**
 * The decision headers of an answer with `outcome`, as the trace stands: the one place they are built,
 * refusals before routing included (an empty trace). A new object: the answer adds its own headers to it.
 */
export function decisionHeaders(trace: RequestTrace, outcome: RequestOutcome): Record<string, string> {
  const attempts = trace.attemptsSoFar();
  const served = trace.served;
  const headers: Record<string, string> = {
    'x-request-id': trace.requestId,
    'x-fcm-v2-model': headerValue(served ?? attempts.at(-1)?.model ?? 'none'),
    'x-fcm-v2-attempts': String(attempts.length),
    'x-fcm-v2-decision': formatDecision(served, outcome, attempts, trace.skips.length),
  };
  if (trace.lastResortUsed) headers['x-fcm-v2-last-resort'] = 'true';
  return headers;
}
