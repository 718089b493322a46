import type { RequestOutcome } from '../../../router/api-types.js';
import { OUTCOME_LABELS } from '../lib/labels.js';

/** A request's outcome; a served request that needed failover is marked as such. */
export function OutcomeBadge({ outcome, attempts }: { outcome: RequestOutcome; attempts: number }) {
  const failover = outcome === 'served' && attempts > 1;
  const tone =
    outcome === 'served' ? (failover ? 'failover' : 'ok') : outcome === 'client_aborted' ? 'muted' : 'bad';
  return (
    <span className={`badge outcome-${tone}`}>
      {failover ? 'served after failover' : OUTCOME_LABELS[outcome]}
    </span>
  );
}
