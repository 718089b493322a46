import type { ReactNode } from 'react';
import type { HealthAction, HealthVerdict } from '../../../../router/api-types.js';
import { Countdown } from '../../components/Countdown.js';
import { formatHourMinute } from '../../lib/format.js';
import { PROBLEM_WORDS, tokenAddress, type ConnectionProblem } from '../../live/connection-problem.js';

const LINKS: Partial<Record<HealthAction, { href: string; label: string }>> = {
  add_key: { href: '#/providers', label: 'Add a key in Providers' },
  check_keys: { href: '#/providers', label: 'Check the keys in Providers' },
  enable_provider: { href: '#/providers', label: 'Open Providers' },
  edit_set: { href: '#/models', label: 'Edit the set in Models' },
};

/**
 * The router's own verdict, in its words, with the one thing to do about it (and when the first model that
 * is out is back: the verdict gives no such time while routing is paused).
 */
export function Verdict({
  health,
  resume,
}: {
  health: HealthVerdict;
  /** The Resume routing button while routing is paused, else nothing (the card owns Pause and Resume). */
  resume: ReactNode;
}) {
  const link = health.action ? LINKS[health.action] : undefined;
  return (
    <div className={`verdict verdict-${health.level}`} role="status" aria-label="Router health">
      <p className="verdict-head">
        <span className="verdict-dot" aria-hidden="true" />
        <strong className="verdict-title">{health.title}</strong>
        <span className="verdict-level sr-only">({health.level})</span>
      </p>
      <p className="verdict-reason">
        {health.reason.charAt(0).toUpperCase()}
        {health.reason.slice(1)}.
      </p>
      <p className="verdict-actions">
        {health.backAt !== null && health.level !== 'green' && (
          <Countdown label="first model back" until={health.backAt} />
        )}
        {resume}
        {link && (
          <a className="btn btn-small" href={link.href}>
            {link.label}
          </a>
        )}
      </p>
    </div>
  );
}

/**
 * The card while the dashboard cannot follow the router: since when and that it comes back by itself, or,
 * when the router refuses the page for want of its token, how to open the page with it.
 */
export function CutOff({ since, problem }: { since: number; problem: ConnectionProblem }) {
  return (
    <div className="verdict verdict-red" role="status" aria-label="Router health">
      <p className="verdict-head">
        <span className="verdict-dot" aria-hidden="true" />
        <strong className="verdict-title">
          {PROBLEM_WORDS[problem].title}
          {problem !== 'no_token' && ` since ${formatHourMinute(since)}`}
        </strong>
      </p>
      {problem === 'unreachable' ? (
        <p className="verdict-reason">
          The dashboard cannot reach the router: the figures below are from before, and it reconnects by
          itself. Is it running (<code>fcm-router status</code>)?
        </p>
      ) : (
        <p className="verdict-reason">
          The router accepts remote connections and wants its token on every read; it makes a new one at every
          start. Open this page as <code>{tokenAddress(window.location.origin)}</code>, the address the router
          prints at start; the token is the token field of <code>daemon.json</code> in its state folder.
        </p>
      )}
    </div>
  );
}
