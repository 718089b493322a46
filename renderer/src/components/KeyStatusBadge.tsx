import type { KeyStatus } from '../../../router/api-types.js';

const LABELS: Record<KeyStatus, string> = {
  set: 'key set',
  env: 'key from env',
  missing: 'key missing',
  invalid: 'key invalid (401)',
  not_required: 'no key needed',
};

const TONES: Record<KeyStatus, string> = {
  set: 'ok',
  env: 'ok',
  missing: 'muted',
  invalid: 'bad',
  not_required: 'muted',
};

/** Whether a provider has a usable key. Never shows the key, only where it comes from. */
export function KeyStatusBadge({ status, source }: { status: KeyStatus; source: string | null }) {
  const title = status === 'env' && source ? `From the environment variable ${source}` : undefined;
  return (
    <span className={`badge outcome-${TONES[status]}`} title={title}>
      {LABELS[status]}
    </span>
  );
}
