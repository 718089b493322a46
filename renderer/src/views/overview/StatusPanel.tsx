import { useMutation, useQuery } from '@tanstack/react-query';
import type { HealthAction, HealthVerdict } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { useHealth, useProviders, useRouterState } from '../../api/queries.js';
import { Countdown } from '../../components/Countdown.js';
import { Panel } from '../../components/Panel.js';
import { errorText } from '../../components/QueryStatus.js';
import { desktopBridge } from '../../desktop/bridge.js';
import { formatUptime } from '../../lib/format.js';
import { useNow } from '../../lib/use-now.js';
import { useRefreshAt } from '../../lib/use-refresh-at.js';
import { usability } from '../../lib/usable-models.js';

const LINKS: Partial<Record<HealthAction, { href: string; label: string }>> = {
  add_key: { href: '#/providers', label: 'Add a key in Providers' },
  check_keys: { href: '#/providers', label: 'Check the keys in Providers' },
  enable_provider: { href: '#/providers', label: 'Open Providers' },
  edit_set: { href: '#/models', label: 'Edit the set in Models' },
};

/** The router's own verdict, in its words, with the one thing to do about it. */
function Verdict({
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

/** How many models can be routed to, and what a key would add; most useful on a first run. */
function UsableModels() {
  const { data } = useProviders();
  if (!data) return <>–</>;
  const u = usability(data.providers);
  return (
    <>
      <span className="mono">{u.usableModels}</span> models usable
      {u.keyless.length > 0 && <span className="muted"> ({u.keyless.join(' and ')} need no key)</span>}
      {u.needKey > 0 && (
        <span className="block small">
          <a href="#/providers">Add a key in Providers</a> for more: {u.needKey} providers with{' '}
          {u.needKeyModels} models wait for one.
        </span>
      )}
    </>
  );
}

/** The health verdict, where the router listens, which version runs, for how long, and the pause switch. */
export function StatusPanel() {
  const health = useHealth();
  const state = useRouterState();
  const now = useNow();
  const bridge = desktopBridge();
  const appVersion = useQuery({
    queryKey: ['desktop-version'],
    queryFn: () => bridge?.getAppVersion() ?? Promise.resolve(null),
    enabled: bridge !== null,
  });
  const pause = useMutation({ mutationFn: (paused: boolean) => api.setPaused(paused) });
  useRefreshAt(state.data?.health.backAt ?? null);
  const uptime = health.data ? health.data.uptimeMs + (now - health.dataUpdatedAt) : null;
  const paused = state.data?.paused ?? false;

  return (
    <Panel
      title="Router"
      actions={
        state.data && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => pause.mutate(!paused)}
            disabled={pause.isPending}
            aria-pressed={paused}
          >
            {paused ? 'Resume routing' : 'Pause routing'}
          </button>
        )
      }
    >
      {health.error ? (
        <div className="verdict verdict-red" role="status" aria-label="Router health">
          <p className="verdict-head">
            <span className="verdict-dot" aria-hidden="true" />
            <strong className="verdict-title">unreachable</strong>
          </p>
          <p className="verdict-reason">The dashboard cannot reach the router.</p>
        </div>
      ) : state.data ? (
        <Verdict health={state.data.health} onResume={() => pause.mutate(false)} resuming={pause.isPending} />
      ) : (
        <p className="muted">Loading…</p>
      )}
      <dl className="facts">
        <div>
          <dt>Listening</dt>
          <dd className="mono">{window.location.origin}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd className="mono">
            {health.data?.version ?? '–'}
            {appVersion.data && <span className="muted"> · app {appVersion.data}</span>}
          </dd>
        </div>
        <div>
          <dt>Uptime</dt>
          <dd className="mono">{uptime === null ? '–' : formatUptime(uptime)}</dd>
        </div>
        <div>
          <dt>Active set</dt>
          <dd>
            <span className="mono">{state.data?.activeSet ?? '–'}</span>
            {state.data && (
              <span className="muted">
                {' '}
                · {state.data.health.counts.routable} of {state.data.health.counts.total} routable
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Catalogue</dt>
          <dd>
            <UsableModels />
          </dd>
        </div>
      </dl>
      {pause.error && <p className="field-error">{errorText(pause.error)}</p>}
    </Panel>
  );
}
