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

  /** The decision headers as known now; `committing` is the attempt whose stream is being committed. */
  headers(outcome: RequestOutcome, requestId: string, committing?: AttemptView): Record<string, string> {
    const attempts = committing ? [...this.attempts, committing] : this.attempts;
    const headers: Record<string, string> = {
      'x-request-id': requestId,
      'x-fcm-v2-model': this.served ?? attempts.at(-1)?.model ?? 'none',
      'x-fcm-v2-attempts': String(attempts.length),
      'x-fcm-v2-decision': formatDecision(this.served, outcome, attempts, this.skips.length),
    };
    if (this.lastResortUsed) headers['x-fcm-v2-last-resort'] = 'true';
    return headers;
  }
}
