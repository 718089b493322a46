import { formatDuration } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';

interface CountdownProps {
  label: string;
  until: number;
}

/**
 * A live countdown to `until`: `HALF_OPEN in 0:42`, then `HALF_OPEN due` once the time has come. Keyed by
 * its moment: a countdown moved to a new one (a DEGRADED model's trial, then its breaker's cooldown) starts
 * from the time now, not from its last tick, which may be a second old and would show more than is left.
 */
export function Countdown({ label, until }: CountdownProps) {
  return <Ticking key={until} label={label} until={until} />;
}

function Ticking({ label, until }: CountdownProps) {
  const now = useNow();
  const left = until - now;
  const text = left > 0 ? `${label} in ${formatDuration(left)}` : `${label} due`;
  return (
    <span className="countdown mono" role="timer" aria-live="off">
      {text}
    </span>
  );
}
