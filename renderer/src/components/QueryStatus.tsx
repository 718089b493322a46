import { isApiError, routerWords } from '../api/client.js';
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

/**
 * What to do when the router refuses a change for the page's token: the router's own words are for
 * scripts, and its "reload it" does not help a page of a router that accepts remote connections.
 */
export const TOKEN_REFUSED_WORDS =
  'the router refused this page’s token: open the dashboard again (for a router started with --allow-remote, at the address it prints ending in /#token=<token>)';

/**
 * A mutation's error in the router's words; its HTTP status is for scripts. `fields`: what the form calls
 * the body fields it sends, so that a sentence about one (the router names it in `param`) reads as the
 * form does, e.g. `{ apiKey: 'key' }`.
 */
export function errorText(error: unknown, fields: Readonly<Record<string, string>> = {}): string {
  if (isApiError(error) && error.code === 'forbidden_token') return TOKEN_REFUSED_WORDS;
  if (!isApiError(error)) return error instanceof Error ? error.message : 'unexpected error';
  const words = routerWords(error);
  const param = error.param;
  if (param === null || !Object.hasOwn(fields, param)) return words;
  const name = param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return words.replace(new RegExp(`(?<![\\w.])${name}(?!\\w|\\.\\w)`, 'g'), fields[param] ?? param);
}
