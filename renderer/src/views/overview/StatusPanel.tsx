import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/endpoints.js';
import { useHealth, useProviders, useRouterState } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { errorText } from '../../components/QueryStatus.js';
import { desktopBridge } from '../../desktop/bridge.js';
import { countOf, formatUptime, wordList } from '../../lib/format.js';
import { useFocusHandoff } from '../../lib/use-focus-handoff.js';
import { useNow } from '../../lib/use-now.js';
import { useRefreshAt } from '../../lib/use-refresh-at.js';
import { usability } from '../../lib/usable-models.js';
import { useConnectionProblem, useCutOffSince } from '../../live/connection-context.js';
import { CutOff, Verdict } from './VerdictCard.js';

/** How many models can be routed to, and what a key would add; most useful on a first run. */
function UsableModels() {
  const { data } = useProviders();
  if (!data) return <>–</>;
  const u = usability(data.providers);
  return (
    <>
      <span className="mono">{u.usableModels}</span> {u.usableModels === 1 ? 'model' : 'models'} usable
      {u.keyless.length > 0 && (
        <span className="muted">
          {' '}
          ({wordList(u.keyless)} {u.keyless.length === 1 ? 'needs' : 'need'} no key)
        </span>
      )}
      {u.needKey > 0 && (
        <span className="block small">
          <a href="#/providers">Add a key in Providers</a> for more: {countOf(u.needKey, 'provider')} with{' '}
          {countOf(u.needKeyModels, 'model')} {u.needKeyModels === 1 ? 'waits' : 'wait'} for one.
        </span>
      )}
    </>
  );
}

/** Where the router listens, its version and uptime, the active set and the catalogue. */
function RouterFacts({
  stale,
  uptime,
  appVersion,
}: {
  stale: boolean;
  uptime: number | null;
  appVersion: string | null;
}) {
  const health = useHealth();
  const state = useRouterState();
  return (
    <dl className={stale ? 'facts stale' : 'facts'}>
      <div>
        <dt>Listening</dt>
        <dd className="mono">{window.location.origin}</dd>
      </div>
      <div>
        <dt>Version</dt>
        <dd className="mono">
          {health.data?.version ?? '–'}
          {appVersion && <span className="muted"> · app {appVersion}</span>}
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
  );
}

/**
 * The health verdict, where the router listens, which version runs, for how long, and the pause switch. While the
 * router does not answer, the card says since when, its figures are dimmed and Pause is disabled; it
 * comes back by itself when the stream reopens.
 */
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
  // Pause and Resume replace each other: the keyboard's focus goes from the one pressed to the other.
  const { hand, drop, take: takeFocus } = useFocusHandoff();
  const pause = useMutation({
    mutationFn: (paused: boolean) => api.setPaused(paused),
    onError: drop,
  });
  // A press on the button that took the other's place may come before the other's answer.
  const pressing = (paused: boolean): boolean => pause.isPending && pause.variables === paused;
  const press = (paused: boolean): void => {
    if (pressing(paused)) return;
    hand();
    pause.mutate(paused);
  };
  useRefreshAt(state.data?.health.backAt ?? null);
  // Cut off: the live stream broke, or the router's /health did not answer.
  const downSince = useCutOffSince() ?? (health.error ? health.errorUpdatedAt : null);
  const problem = useConnectionProblem() ?? 'unreachable';
  const uptime =
    health.data && downSince === null ? health.data.uptimeMs + (now - health.dataUpdatedAt) : null;
  const paused = state.data?.paused ?? false;

  return (
    <Panel
      title="Router"
      actions={
        // While paused, the verdict below holds the one Resume button.
        state.data &&
        !paused && (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => press(true)}
            aria-disabled={pressing(true)}
            disabled={downSince !== null}
            ref={takeFocus}
          >
            Pause routing
          </button>
        )
      }
    >
      {downSince !== null ? (
        <CutOff since={downSince} problem={problem} />
      ) : state.data ? (
        <Verdict
          health={state.data.health}
          resume={
            // Shown as Pause is hidden, by the same flag: the verdict's words may follow a moment later.
            paused && (
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={() => press(false)}
                aria-disabled={pressing(false)}
                ref={takeFocus}
              >
                Resume routing
              </button>
            )
          }
        />
      ) : (
        <p className="muted">Loading…</p>
      )}
      <RouterFacts stale={downSince !== null} uptime={uptime} appVersion={appVersion.data ?? null} />
      {pause.error && <p className="field-error">{errorText(pause.error)}</p>}
    </Panel>
  );
}
