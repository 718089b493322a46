import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProbeView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { errorText } from '../../components/QueryStatus.js';
import { formatClock, formatLatency } from '../../lib/format.js';
import { FAILURE_HINTS } from '../../lib/labels.js';

/** A probe's result in a few words: `probe ok, 340 ms at 12:04:10` or `probe failed: timeout at …`. */
export function probeSummary(probe: ProbeView): string {
  const what = probe.ok
    ? `probe ok, ${formatLatency(probe.latencyMs)}`
    : `probe failed: ${probe.kind ?? 'refused'}`;
  return `${what} at ${formatClock(probe.at)}`;
}

/** "Probe now" for one model, and what its last probe found. */
export function ProbeControl({ modelKey, last }: { modelKey: string; last: ProbeView | null }) {
  const client = useQueryClient();
  const probe = useMutation({
    mutationFn: () => api.probeModel(modelKey),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.state }),
  });
  return (
    <span className="probe-control">
      <button
        type="button"
        className="btn btn-small"
        onClick={() => probe.mutate()}
        disabled={probe.isPending}
        aria-label={`Probe ${modelKey} now`}
        title="A tiny completion (5 tokens at most) through the gate; for an OPEN model it is its trial"
      >
        {probe.isPending ? 'Probing…' : 'Probe'}
      </button>
      {last && (
        <span
          className={`small probe-note ${last.ok ? 'muted' : 'outcome-bad'}`}
          title={!last.ok && last.kind ? FAILURE_HINTS[last.kind] : undefined}
        >
          {probeSummary(last)}
        </span>
      )}
      {probe.error && <span className="field-error probe-note">{errorText(probe.error)}</span>}
    </span>
  );
}
