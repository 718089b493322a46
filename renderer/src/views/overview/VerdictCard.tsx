import type { HealthAction, HealthVerdict } from '../../../../router/api-types.js';
import { Countdown } from '../../components/Countdown.js';
import { formatHourMinute } from '../../lib/format.js';

const LINKS: Partial<Record<HealthAction, { href: string; label: string }>> = {
  add_key: { href: '#/providers', label: 'Add a key in Providers' },
  check_keys: { href: '#/providers', label: 'Check the keys in Providers' },
  enable_provider: { href: '#/providers', label: 'Open Providers' },
  edit_set: { href: '#/models', label: 'Edit the set in Models' },
};

/** The router's own verdict, in its words, with the one thing to do about it. */
export function Verdict({
  health,
  onResume,
  resuming,
}: {
  health: HealthVerdict;
  onResume(): void;
  resuming: boolean;
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
        {health.action === 'resume' && (
          <button type="button" className="btn btn-small btn-primary" onClick={onResume} disabled={resuming}>
            Resume routing
          </button>
        )}
        {link && (
          <a className="btn btn-small" href={link.href}>
            {link.label}
          </a>
        )}
      </p>
    </div>
  );
}

/** The card while the router does not answer: since when, and that it comes back by itself. */
export function CutOff({ since }: { since: number }) {
  return (
    <div className="verdict verdict-red" role="status" aria-label="Router health">
      <p className="verdict-head">
        <span className="verdict-dot" aria-hidden="true" />
        <strong className="verdict-title">router not reachable since {formatHourMinute(since)}</strong>
      </p>
      <p className="verdict-reason">
        The dashboard cannot reach the router: the figures below are from before, and it reconnects by itself.
        Is it running (<code>fcm-router status</code>)?
      </p>
    </div>
  );
}
