import { formatDuration } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';

/** A live countdown to `until`: `HALF_OPEN in 0:42`, then `HALF_OPEN due` once the time has come. */
export function Countdown({ label, until }: { label: string; until: number }) {
  const now = useNow();
  const left = until - now;
  const text = left > 0 ? `${label} in ${formatDuration(left)}` : `${label} due`;
  return (
    <span className="countdown mono" role="timer" aria-live="off">
      {text}
    </span>
  );
}
