import { isApiError, routerWords } from '../api/client.js';
import type { ConnectionStatus } from './event-stream.js';

/**
 * Why the event stream failed, as far as one read of the API tells: the router refused the page's token
 * (403 `forbidden_token`, when it accepts remote connections), or anything else.
 */
export type ConnectionCause = 'unreachable' | 'token';

/** What the dashboard says while it cannot follow the router. */
export type ConnectionProblem = 'unreachable' | 'no_token' | 'token_refused';

/**
 * The cause a failed read of `/api/*` points to. An EventSource cannot see the status of its failure, so
 * the stream asks the API once after each break; a read that succeeds leaves the stream's own failure.
 */
export function causeOfRead(error: unknown): ConnectionCause {
  return isApiError(error) && error.code === 'forbidden_token' ? 'token' : 'unreachable';
}

/**
 * Which problem to show for a connection status, or null while the stream is open or still making its
 * first connect. `hasToken`: the page holds a token (then the router refused that one, e.g. one of an
 * earlier start).
 */
export function connectionProblem(status: ConnectionStatus, hasToken: boolean): ConnectionProblem | null {
  if (status.state === 'open' || status.downSince === undefined) return null;
  if (status.cause !== 'token') return 'unreachable';
  return hasToken ? 'token_refused' : 'no_token';
}

/** How the router's address with the token looks, as the daemon prints it at start. */
export function tokenAddress(origin: string): string {
  return `${origin}/#token=<token>`;
}

const ADDRESS =
  'at the address the router prints at start, ending in /#token=<token> (the token is the token field of daemon.json in its state folder)';

/** The words of each problem: the header's, before "— retrying in …", the banner's and the card's title. */
export const PROBLEM_WORDS: Record<ConnectionProblem, { indicator: string; banner: string; title: string }> =
  {
    unreachable: {
      indicator: 'disconnected',
      banner: 'The router is not reachable — retrying with backoff. What you see may be out of date.',
      title: 'router not reachable',
    },
    no_token: {
      indicator: 'no token',
      banner: `This page has no token for the router, which accepts remote connections: open the dashboard ${ADDRESS}. Retrying with backoff.`,
      title: 'this page has no token for the router',
    },
    token_refused: {
      indicator: 'token refused',
      banner: `The router refused this page’s token (it makes a new one at every start): open the dashboard again ${ADDRESS}. Retrying with backoff.`,
      title: 'the router refused this page’s token',
    },
  };

/** What a view shows for a resource it could not load: its line, and whether that line is an alert. */
export interface LoadFailureWords {
  text: string;
  alert: boolean;
}

/**
 * The line for a failed read of `what`. A read refused for want of the router's token says so in a few
 * words and points at the banner, which alone says how to open the page with the token: the router's own
 * refusal is written for scripts, and every panel repeating it would bury the banner. A read that found the
 * router gone while the banner says so is a quiet line too. `problem`: what the banner shows now (a refusal
 * seen before the banner is up gets no pointer). Any other failure keeps its own words, as an alert.
 */
export function loadFailureWords(
  what: string,
  error: unknown,
  problem: ConnectionProblem | null,
): LoadFailureWords {
  if (causeOfRead(error) === 'token') {
    const bannerUp = problem === 'no_token' || problem === 'token_refused';
    const pointer = bannerUp ? ': see the banner above.' : '.';
    return { text: `Could not load ${what} without the router’s token${pointer}`, alert: false };
  }
  // With the router gone the banner says so once; each panel only notes what it lacks.
  if (problem === 'unreachable' && isApiError(error) && error.code === 'unreachable')
    return {
      text: `Could not load ${what}: the router is not reachable (see the banner above).`,
      alert: false,
    };
  const message = isApiError(error) ? routerWords(error) : 'unexpected error';
  return { text: `Could not load ${what}: ${message}`, alert: true };
}
