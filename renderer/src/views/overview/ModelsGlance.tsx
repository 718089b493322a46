import { useRouterState } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { StateBadge } from '../../components/StateBadge.js';
import { displayState, type DisplayState } from '../../lib/model-status.js';
import { useNow } from '../../lib/use-now.js';

const ORDER: DisplayState[] = ['CLOSED', 'DEGRADED', 'HALF_OPEN', 'OPEN', 'QUOTA_PAUSED', 'KEY_INVALID'];

/** How the active set is doing, and which model the next request goes to. */
export function ModelsGlance() {
  const { data } = useRouterState();
  const now = useNow();
  if (!data) return null;
  const active = data.models.filter((m) => m.inActiveSet);
  const counts = new Map<DisplayState, number>();
  for (const m of active) counts.set(displayState(m, now), (counts.get(displayState(m, now)) ?? 0) + 1);
  const next = active.find(
    (m) => ['CLOSED', 'DEGRADED', 'HALF_OPEN'].includes(displayState(m, now)) && !m.missingKey,
  );
  return (
    <Panel title="Active set" actions={<a href="#/models">Models →</a>}>
      <ul className="glance">
        {ORDER.filter((s) => counts.has(s)).map((s) => (
          <li key={s}>
            <StateBadge state={s} /> <span className="mono">{counts.get(s)}</span>
          </li>
        ))}
        {active.length === 0 && <li className="muted">The active set is empty.</li>}
      </ul>
      <p className="small">
        Next request goes to{' '}
        {next ? (
          <code className="model-key">{next.key}</code>
        ) : (
          <span className="field-error">no routable model</span>
        )}
      </p>
    </Panel>
  );
}
