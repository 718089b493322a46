/**
 * A whole config sent by an editor (`PUT /api/config`, `POST /api/config/check`), made into the config it
 * would save: masked keys take their stored value back, except where the provider's address or headers
 * change in the same config (a key is meant for one address).
 */
import { validateConfig } from './config-store.js';
import type { ConfigInput, ConfigIssue } from './schema.js';
import { keysLeavingTheirAddress, restoreMaskedSecrets } from './secrets.js';

/** What `incoming` would be saved as over `current`, or why it is not a config at all. */
export function wholeCandidate(
  incoming: unknown,
  current: ConfigInput,
): { raw: ConfigInput; keysDropped: string[] } | { ok: false; issues: ConfigIssue[] } {
  if (typeof incoming !== 'object' || incoming === null || Array.isArray(incoming)) {
    return { ok: false, issues: [{ path: '(root)', message: 'must be a JSON object' }] };
  }
  // Shape only: the whole candidate is validated before anything is saved.
  const asSent = incoming as ConfigInput;
  const providers: unknown = asSent.providers;
  const keysDropped =
    typeof providers === 'object' && providers !== null && !Array.isArray(providers)
      ? keysLeavingTheirAddress(asSent, current)
      : [];
  return { raw: restoreMaskedSecrets(asSent, current, new Set(keysDropped)), keysDropped };
}

/**
 * What a save of `incoming` over `current` would meet: the problems it would be refused for (none when it
 * would be saved), and the providers whose stored keys it would drop.
 */
export function checkWhole(
  incoming: unknown,
  current: ConfigInput,
): { issues: ConfigIssue[]; keysDropped: string[] } {
  const candidate = wholeCandidate(incoming, current);
  if (!('raw' in candidate)) return { issues: candidate.issues, keysDropped: [] };
  const checked = validateConfig(candidate.raw);
  return { issues: checked.ok ? [] : checked.issues, keysDropped: candidate.keysDropped };
}
