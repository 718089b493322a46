import { Component, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { ViewLoadError, type ViewLoader } from '../lib/view-loader.js';
import { useConnection, useConnectionProblem } from '../live/connection-context.js';
import type { ConnectionStatus } from '../live/event-stream.js';

interface BoundaryProps {
  children: ReactNode;
  fallback: (error: unknown) => ReactNode;
}

/** Shows `fallback` in place of children that threw, so that the rest of the page stays. */
class Boundary extends Component<BoundaryProps, { failure: { error: unknown } | null }> {
  override state: { failure: { error: unknown } | null } = { failure: null };

  static getDerivedStateFromError(error: unknown) {
    return { failure: { error } };
  }

  override render() {
    return this.state.failure ? this.props.fallback(this.state.failure.error) : this.props.children;
  }
}

function openSince(status: ConnectionStatus): number | null {
  return status.state === 'open' ? status.since : null;
}

/** What a view that could not be shown says, in the words the panels use for a failed read. */
function failureWords(what: string, error: unknown, outage: boolean): string {
  if (!(error instanceof ViewLoadError))
    return `Could not show ${what}: ${error instanceof Error ? error.message : 'unexpected error'}`;
  if (outage) return `Could not load ${what}: the router is not reachable (see the banner above).`;
  return `Could not load ${what}: the page could not fetch its code from the router. If the router was updated since the page was opened, reload the page.`;
}

interface FailedProps {
  what: string;
  error: unknown;
  onRetry: (error: unknown) => void;
}

/**
 * In place of a view that failed: why, and a Retry. It also retries by itself when the router answers
 * again, that is when the live stream opens anew (the views' data reloads then too).
 */
function ViewFailed({ what, error, onRetry }: FailedProps) {
  const connection = useConnection();
  const outage = useConnectionProblem() === 'unreachable';
  const [openAtFailure] = useState(() => openSince(connection));
  const since = openSince(connection);
  const back = since !== null && since !== openAtFailure;
  useEffect(() => {
    if (back) onRetry(error);
  }, [back, error, onRetry]);
  const quiet = outage && error instanceof ViewLoadError;
  return (
    <div className={quiet ? 'notice' : 'notice notice-bad'} role={quiet ? undefined : 'alert'}>
      <p className={quiet ? 'muted' : undefined}>{failureWords(what, error, outage)}</p>
      <button type="button" className="btn btn-small" onClick={() => onRetry(error)}>
        Retry
      </button>
    </div>
  );
}

/**
 * A view whose code loads when first opened (`what` names it: "the settings"). A failed load shows in its
 * place, with the navigation and banners still there, and is retried as {@link ViewFailed} says.
 */
export function LazyView({ loader, what }: { loader: ViewLoader; what: string }) {
  // Kept as state, not read from the loader at each render: a component must keep its identity.
  const [load, setLoad] = useState(() => ({ View: loader.current(), attempt: 0 }));
  const retry = useCallback(
    (error: unknown) => {
      const View = loader.retry(error);
      setLoad(({ attempt }) => ({ View, attempt: attempt + 1 }));
    },
    [loader],
  );
  const { View } = load;
  return (
    <Boundary
      key={load.attempt}
      fallback={(error) => <ViewFailed what={what} error={error} onRetry={retry} />}
    >
      <Suspense fallback={<p className="muted">Loading {what}…</p>}>
        <View />
      </Suspense>
    </Boundary>
  );
}
