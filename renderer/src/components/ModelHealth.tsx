import { countdownTarget, displayState, type ModelHealth as Health } from '../lib/model-status.js';
import { useNow } from '../lib/use-now.js';
import { Countdown } from './Countdown.js';
import { StateBadge } from './StateBadge.js';

/** A model's badge with, when something is pending, the countdown to it. */
export function ModelHealth({ model }: { model: Health }) {
  const now = useNow();
  const target = countdownTarget(model, now);
  return (
    <span className="model-health">
      <StateBadge state={displayState(model, now)} />
      {target && <Countdown label={target.label} until={target.until} />}
    </span>
  );
}
