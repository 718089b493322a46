import type { HistoryEntry, QuotaPauseView } from '../../../router/api-types.js';
import { formatClock } from './format.js';
import { ordinal } from './routing-positions.js';

/** The attempt whose answer paused a model: when, with what status, in which request. */
export interface PauseCause {
  at: number;
  status: number | null;
  requestId: string;
  model: string;
}

/**
 * The newest attempt in the history that a pause like `pause` comes from: a 429 (or 402) of the model,
 * or, for a pause of the whole key, of any model of its provider. Null when the history no longer holds it.
 */
export function findPauseCause(
  entries: readonly HistoryEntry[],
  model: { key: string; provider: string },
  pause: QuotaPauseView,
): PauseCause | null {
  const matches = (key: string): boolean =>
    pause.scope === 'provider' ? key.startsWith(`${model.provider}/`) : key === model.key;
  for (const entry of entries) {
    const attempt = entry.attempts.find((a) => a.kind === pause.reason && matches(a.model));
    if (attempt)
      return { at: entry.at, status: attempt.status, requestId: entry.requestId, model: attempt.model };
  }
  return null;
}

/** The status a pause's answer had, when the history no longer holds it. */
const DEFAULT_STATUS: Record<QuotaPauseView['reason'], number> = {
  rate_limit: 429,
  payment_required: 402,
  region_refused: 403,
};

/**
 * Which answer paused the model and who set how long, in plain words: "paused by the 429 at 21:04:05 —
 * the provider's Retry-After holds it until 21:08:05".
 */
export function quotaPauseWords(pause: QuotaPauseView, cause: PauseCause | null, self: string): string {
  const status = cause?.status ?? DEFAULT_STATUS[pause.reason];
  const by = cause
    ? `the ${status} at ${formatClock(cause.at)}${cause.model !== self ? ` on ${cause.model}` : ''}`
    : `a ${status}`;
  const what = pause.reason === 'region_refused' ? 'the whole key' : 'a limit of the whole key';
  const scope = pause.scope === 'provider' ? ` (${what}: every model of it waits)` : '';
  const until = formatClock(pause.until);
  const length =
    pause.reason === 'payment_required'
      ? `out of credit, held until ${until}`
      : pause.reason === 'region_refused'
        ? `the provider does not serve this network location, held until ${until} (Reset tries again now)`
        : pause.repeat > 1
          ? `${ordinal(pause.repeat)} 429 in a row as its pause ran out, so the router doubled the pause: until ${until}`
          : pause.fromProvider
            ? `the provider’s Retry-After holds it until ${until}`
            : `no usable Retry-After, so the router’s own pause until ${until}`;
  return `paused by ${by}${scope} — ${length}`;
}
