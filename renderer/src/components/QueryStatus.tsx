import { isApiError } from '../api/client.js';
import { useConnectionProblem } from '../live/connection-context.js';
import { loadFailureWords } from '../live/connection-problem.js';

/**
 * What to show while a resource loads or when it failed: its error as an alert, or, when the router refused
 * the page's token, a quiet line pointing at the connection banner.
 */
export function QueryStatus({
  isPending,
  error,
  what,
}: {
  isPending: boolean;
  error: unknown;
  what: string;
}) {
  const problem = useConnectionProblem();
  if (error) {
    const words = loadFailureWords(what, error, problem);
    if (!words.alert) return <p className="muted">{words.text}</p>;
    return (
      <p className="notice notice-bad" role="alert">
        {words.text}
      </p>
    );
  }
  if (isPending) return <p className="muted">Loading {what}…</p>;
  return null;
}

/** A mutation's error, in words. */
export function errorText(error: unknown): string {
  if (isApiError(error)) return error.status ? `${error.message} (HTTP ${error.status})` : error.message;
  return error instanceof Error ? error.message : 'unexpected error';
}
