import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/endpoints.js';
import { useHealth, useRouterState } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { errorText } from '../../components/QueryStatus.js';
import { desktopBridge } from '../../desktop/bridge.js';
import { formatDuration } from '../../lib/format.js';
import { useNow } from '../../lib/use-now.js';

/** Where the router listens, which version runs, for how long, and the pause switch. */
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
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            {health.error ? (
              <span className="badge outcome-bad">unreachable</span>
            ) : paused ? (
              <span className="badge outcome-failover">paused</span>
            ) : health.data ? (
              <span className="badge outcome-ok">routing</span>
            ) : (
              '…'
            )}
          </dd>
        </div>
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
          <dd className="mono">{uptime === null ? '–' : formatDuration(uptime)}</dd>
        </div>
        <div>
          <dt>Active set</dt>
          <dd className="mono">{state.data?.activeSet ?? '–'}</dd>
        </div>
      </dl>
      {pause.error && <p className="field-error">{errorText(pause.error)}</p>}
    </Panel>
  );
}
