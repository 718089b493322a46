import type { ModelStateView } from '../../../../router/api-types.js';
import { useRouterState } from '../../api/queries.js';
import { ModelHealth } from '../../components/ModelHealth.js';
import { ModelKey } from '../../components/ModelKey.js';
import { Panel } from '../../components/Panel.js';
import { StateBadge } from '../../components/StateBadge.js';
import { failureHint, outReason } from '../../lib/model-reason.js';
import { displayState, type DisplayState } from '../../lib/model-status.js';
import { useNow } from '../../lib/use-now.js';

const ORDER: DisplayState[] = [
  'CLOSED',
  'DEGRADED',
  'HALF_OPEN',
  'OPEN',
  'QUOTA_PAUSED',
  'KEY_INVALID',
  'NO_KEY',
];
/** The failing models listed here; the rest are one click away. */
const MAX_LISTED = 8;

/** The models of the set whose provider is switched off: left out of the counts, named apart. */
function SwitchedOff({ models }: { models: readonly ModelStateView[] }) {
  if (models.length === 0) return null;
  return (
    <>
      <h3 className="subhead">Left out</h3>
      <ul className="failing-list" aria-label="Switched-off models">
        {models.map((model) => (
          <li key={model.key} aria-label={model.key}>
            <ModelKey value={model.key} />
            <span className="small muted">provider switched off</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * How the active set is doing: state counts, and which models fail, why, and when they come back. Models of
 * a switched-off provider are not counted (as the status card does not) but named below, apart.
 */
export function ModelsGlance() {
  const { data } = useRouterState();
  const now = useNow();
  if (!data) return null;
  const set = data.models.filter((m) => m.inActiveSet);
  const active = set.filter((m) => m.blockedBy !== 'provider_disabled');
  const off = set.filter((m) => m.blockedBy === 'provider_disabled');
  // Absent from an older router's snapshot.
  const spared = new Set<string>(data.recent?.spared ?? []);
  const counts = new Map<DisplayState, number>();
  for (const m of active) counts.set(displayState(m, now), (counts.get(displayState(m, now)) ?? 0) + 1);
  const failing = active
    .map((model) => ({ model, reason: outReason(model, now, spared.has(model.key)) }))
    .filter((f): f is { model: typeof f.model; reason: string } => f.reason !== null);
  return (
    <Panel title="Active set" actions={<a href="#/models">Models →</a>}>
      <ul className="glance" aria-label="Models by state">
        {ORDER.filter((s) => counts.has(s)).map((s) => (
          <li key={s}>
            <StateBadge state={s} /> <span className="mono">{counts.get(s)}</span>
          </li>
        ))}
        {set.length === 0 && <li className="muted">The active set is empty.</li>}
      </ul>
      {failing.length > 0 ? (
        <>
          <h3 className="subhead">Not taking requests normally</h3>
          <ul className="failing-list" aria-label="Failing models">
            {failing.slice(0, MAX_LISTED).map(({ model, reason }) => (
              <li key={model.key} aria-label={model.key}>
                <ModelKey value={model.key} />
                <ModelHealth model={model} />
                <span className="small" title={failureHint(model)}>
                  {reason}
                </span>
              </li>
            ))}
          </ul>
          {failing.length > MAX_LISTED && (
            <p className="small">
              <a href="#/models">{failing.length - MAX_LISTED} more in Models</a>
            </p>
          )}
        </>
      ) : (
        active.length > 0 && (
          <p className="small muted">
            {off.length > 0 ? 'Every model in use is healthy.' : 'Every model of the set is healthy.'}
          </p>
        )
      )}
      <SwitchedOff models={off} />
    </Panel>
  );
}
