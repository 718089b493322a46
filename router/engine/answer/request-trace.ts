/**
 * What one request has done, and how its answer reports it: the request's trace (attempts, skips, the
 * attempts running now, what its end must book) and the decision headers built from it, in one ASCII-safe
 * encoding of names (`headerValue`), with the request's id.
 */
import type { AttemptView, BreakerStateName, RefusalView, SkipView, UsageView } from '../../api-types.js';
import type { Classification } from '../../gate/failure-classifier.js';
import type { RequestOutcome } from '../../gate/failure-kinds.js';

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

/** No models: what most requests put behind (one array for all of them). */
const NO_MODELS: readonly string[] = Object.freeze([]);

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
  /** The models its order put behind the others for refusing a request another model served lately. */
  behind: readonly string[] = NO_MODELS;
  /** The largest window (or TPM limit) of the models the request was too large for, in tokens. */
  largestTooSmall: number | null = null;
  /** The error answer the client got instead of a model's, once it went out. */
  refusal: RefusalView | null = null;
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

const CHAIN_MAX = 600;
const VALUE_MAX = 900;

/** One attempt as the decision header writes it: `model:200` for a pass, else the status or failure kind. */
function attemptToken(attempt: AttemptView): string {
  const model = headerValue(attempt.model);
  if (attempt.kind === null) return `${model}:${attempt.status ?? 200}`;
  // A 200 that failed the gate shows its kind, never 200; an HTTP failure shows its status.
  const label = attempt.status !== null && attempt.status >= 300 ? String(attempt.status) : attempt.kind;
  return `${model}:${label}`;
}

/**
 * Formats `x-fcm-v2-decision`: `served!outcome|a/m1:empty_choices->b/m2:200|skips=1`, or
 * `none!all_failed|…` when nothing served. Kept ASCII ({@link headerValue}) and bounded in length.
 */
export function formatDecision(
  served: string | null,
  outcome: RequestOutcome,
  attempts: readonly AttemptView[],
  skipCount: number,
): string {
  let chain = attempts.map(attemptToken).join('->');
  if (chain.length > CHAIN_MAX) chain = `...${chain.slice(chain.length - CHAIN_MAX + 3)}`;
  // Each name is encoded before the bounds apply, so the value stays within them.
  const value = `${headerValue(served ?? 'none')}!${outcome}|${chain}|skips=${skipCount}`;
  return value.length > VALUE_MAX ? value.slice(0, VALUE_MAX) : value;
}

/** Printable ASCII but `%`: what a header value carries as it is. */
const NOT_HEADER_SAFE = /[^\x20-\x24\x26-\x7e]/;
const NOT_HEADER_SAFE_ALL = /[^\x20-\x24\x26-\x7e]/gu;
/** Half of a pair alone (matched as one character with the `u` flag): not encodable, so U+FFFD. */
const LONE_SURROGATE = /^[\ud800-\udfff]$/;

/**
 * A header value for any text, the one encoding of every header built from what agents or configs name
 * (a model id): printable ASCII stays as it is; anything else (CR, LF, NUL, ESC, characters outside
 * Latin-1) and `%` itself are percent-encoded UTF-8, so the value is always writable and can be decoded
 * with `decodeURIComponent`. The usual value is returned unchanged, without a copy.
 * @example headerValue('qwen-通义') // 'qwen-%E9%80%9A%E4%B9%89'
 */
export function headerValue(value: string): string {
  if (!NOT_HEADER_SAFE.test(value)) return value;
  return value.replace(NOT_HEADER_SAFE_ALL, (char) =>
    encodeURIComponent(LONE_SURROGATE.test(char) ? '\ufffd' : char),
  );
}

/** The client's `x-request-id` if it is a sane token of 64 chars or fewer, else a fresh `req-<uuid>`. */
export function pickRequestId(clientValue: string | undefined, makeId: () => string): string {
  if (clientValue && clientValue.length <= 64 && /^[\x21-\x7e]+$/.test(clientValue)) return clientValue;
  return `req-${makeId()}`;
}
