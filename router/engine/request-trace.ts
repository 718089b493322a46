import type { AttemptView, SkipView, UsageView } from '../api-types.js';
import type { Classification } from '../gate/failure-classifier.js';
import type { RequestOutcome } from '../gate/failure-kinds.js';
import { formatDecision } from './decision-header.js';

/** Why an attempt was made: its place in the order, a trial, the panic try, the last resort, a pin. */
export type Role = AttemptView['role'];

/** What one request has done so far: its trace, and the bookkeeping deferred to its end. */
export class RequestTrace {
  readonly attempts: AttemptView[] = [];
  readonly skips: SkipView[] = [];
  readonly failures: Classification[] = [];
  readonly tried = new Set<string>();
  readonly blockedProviders = new Set<string>();
  /** Network errors are booked at the end: if every attempt failed that way across providers, the user is offline. */
  readonly deferredNetwork: { key: string; role: Role }[] = [];
  /** The model that serves (set at commit for streams, so headers written then name it). */
  served: string | null = null;
  /** The served attempt completed cleanly. */
  succeeded = false;
  lastResortUsed = false;
  usage: UsageView | null = null;

  /** The decision headers as known now. */
  headers(outcome: RequestOutcome, requestId: string): Record<string, string> {
    return this.#build(this.served, outcome, requestId, this.attempts);
  }

  /**
   * The headers the answer carries if `attempt` serves it, built ahead of its outcome: nothing changes the
   * trace while an attempt runs, so they equal `headers('served', …)` once it has served with that status.
   */
  servedHeaders(requestId: string, attempt: AttemptView): Record<string, string> {
    return this.#build(attempt.model, 'served', requestId, [...this.attempts, attempt]);
  }

  #build(
    served: string | null,
    outcome: RequestOutcome,
    requestId: string,
    attempts: readonly AttemptView[],
  ): Record<string, string> {
    const headers: Record<string, string> = {
      'x-request-id': requestId,
      'x-fcm-v2-model': served ?? attempts.at(-1)?.model ?? 'none',
      'x-fcm-v2-attempts': String(attempts.length),
      'x-fcm-v2-decision': formatDecision(served, outcome, attempts, this.skips.length),
    };
    if (this.lastResortUsed) headers['x-fcm-v2-last-resort'] = 'true';
    return headers;
  }
}
