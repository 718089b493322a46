import { formatDuration } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';
import { useConnection, useConnectionProblem } from '../live/connection-context.js';
import { PROBLEM_WORDS } from '../live/connection-problem.js';

/** The live dot in the header: live, connecting, or what is wrong with the time to the next retry. */
export function ConnectionIndicator() {
  const status = useConnection();
  const problem = useConnectionProblem() ?? 'unreachable';
  const now = useNow();
  const text =
    status.state === 'open'
      ? 'live'
      : status.state === 'connecting'
        ? 'connecting…'
        : `${PROBLEM_WORDS[problem].indicator} — retrying in ${formatDuration(status.retryAt - now)}`;
  return (
    <span className={`conn conn-${status.state}`} role="status" aria-live="polite">
      <span className="conn-dot" aria-hidden="true" />
      {text}
    </span>
  );
}

/**
 * A banner over the views while the dashboard cannot follow the router, saying why (unreachable, or
 * refused for want of its token); the data shown may be stale.
 */
export function ConnectionBanner() {
  const problem = useConnectionProblem();
  if (problem === null) return null;
  return (
    <div className="banner banner-bad" role="alert">
      {PROBLEM_WORDS[problem].banner}
    </div>
  );
}
