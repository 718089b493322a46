import { DISPLAY_HINTS, DISPLAY_LABELS, type DisplayState } from '../lib/model-status.js';

/** A model's state as a coloured badge; the colours are the same everywhere (see `--state-*` in CSS). */
export function StateBadge({ state }: { state: DisplayState }) {
  return (
    <span className={`badge state-${state.toLowerCase().replace('_', '-')}`} title={DISPLAY_HINTS[state]}>
      {DISPLAY_LABELS[state]}
    </span>
  );
}
