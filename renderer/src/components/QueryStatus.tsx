import { isApiError } from '../api/client.js';

/** What to show while a resource loads or when it failed. */
export function QueryStatus({
  isPending,
  error,
  what,
}: {
  isPending: boolean;
  error: unknown;
  what: string;
}) {
  if (error) {
    const message = isApiError(error) ? error.message : 'unexpected error';
    return (
      <p className="notice notice-bad" role="alert">
        Could not load {what}: {message}
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
