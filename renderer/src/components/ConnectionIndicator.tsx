import { formatDuration } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';
import { useConnection } from '../live/connection-context.js';

/** The live dot in the header: live, connecting, or disconnected with the time to the next retry. */
export function ConnectionIndicator() {
  const status = useConnection();
  const now = useNow();
  const text =
    status.state === 'open'
      ? 'live'
      : status.state === 'connecting'
        ? 'connecting…'
        : `disconnected — retrying in ${formatDuration(status.retryAt - now)}`;
  return (
    <span className={`conn conn-${status.state}`} role="status" aria-live="polite">
      <span className="conn-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

/** A banner over the views while the router cannot be reached; the data shown may be stale. */
export function ConnectionBanner() {
  const status = useConnection();
  if (status.state !== 'retrying') return null;
  return (
    <div className="banner banner-bad" role="alert">
      The router is not reachable — retrying with backoff. What you see may be out of date.
    </div>
  );
}
