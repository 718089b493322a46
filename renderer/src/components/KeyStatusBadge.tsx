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

/**
 * Whether a provider has a usable key. Never shows the key, only where it comes from. A provider added in
 * the config is not known to need one: without a key it is called without one, which is what it says.
 */
export function KeyStatusBadge({
  status,
  source,
  custom = false,
}: {
  status: KeyStatus;
  source: string | null;
  custom?: boolean;
}) {
  const keyless = custom && status === 'not_required';
  const title =
    status === 'env' && source
      ? `From the environment variable ${source}`
      : keyless
        ? 'Called without a key until one is added'
        : undefined;
  return (
    <span className={`badge outcome-${TONES[status]}`} title={title}>
      {keyless ? 'no key: sent without one' : LABELS[status]}
    </span>
  );
}
